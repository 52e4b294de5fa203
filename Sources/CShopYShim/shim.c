#include "CShopYShim.h"
int cshopy_placeholder(void) { return 0; }
