#ifndef CSHOPYSHIM_H
#define CSHOPYSHIM_H
// System definitions that Swift's Glibc module does not export.
int cshopy_placeholder(void);
#endif
