import ShopYKit
