// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "shopy",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "shopy", targets: ["shopy"]),
        .executable(name: "shopy-emulator", targets: ["shopy-emulator"]),
        .library(name: "ShopYKit", targets: ["ShopYKit"]),
    ],
    targets: [
        // A tiny C target for the system headers Glibc does not export (netlink, ioctl helpers).
        // Also libcurl's declarations: the Linux transport opens it with dlopen (libdl on older glibc).
        .target(name: "CShopYShim", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // Everything testable: model, text, sources, HTTP, store, network, output, commands.
        .target(name: "ShopYKit", dependencies: ["CShopYShim"]),
        // The Naver contract on loopback: POSIX sockets, the catalog, faults.
        .target(name: "ShopYEmulator", dependencies: ["ShopYKit"]),
        .executableTarget(name: "shopy", dependencies: ["ShopYKit"]),
        .executableTarget(name: "shopy-emulator", dependencies: ["ShopYEmulator"]),
        .executableTarget(name: "shopy-bench", dependencies: ["ShopYKit"], path: "Benchmarks/shopy-bench"),
        .testTarget(name: "ShopYKitTests", dependencies: ["ShopYKit", "ShopYEmulator"], exclude: ["Golden"]),
        .testTarget(name: "EndToEndTests", dependencies: ["shopy", "shopy-emulator", "ShopYKit"]),
    ]
)
