// swift-tools-version:6.0
import PackageDescription

// Type metadata reached through accessor functions rather than by mangled name: a mangled name
// is demangled at its first use, and each protocol requirement of a generic type in it (the
// Hashable key of a dictionary) is a conformance lookup that scans every conformance record in
// the binary (tens of thousands with Foundation linked in statically). At the start of a command
// that was about half of the instructions of `shopy --version` (issue 17). In every
// configuration, so that the tests run the code as it ships. A frontend option (checked with
// Swift 6.3.1 on Linux): if a toolchain drops it, remove this line; the code is the same.
let directMetadata: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])]

let package = Package(
    name: "shopy",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "shopy", targets: ["shopy"]),
        .executable(name: "shopy-emulator", targets: ["shopy-emulator"]),
        .library(name: "ShopYCore", targets: ["ShopYCore"]),
        .library(name: "ShopYCLI", targets: ["ShopYCLI"]),
    ],
    targets: [
        // A tiny C target for the system headers Glibc does not export (netlink, ioctl helpers).
        // Also libcurl's declarations: the Linux transport opens it with dlopen (libdl on older glibc).
        .target(name: "CShopYShim", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // The work, with no command line: model, text, JSON, store, network, HTTP, product
        // sources, catalog, trends, launch, and the services that return typed results.
        // (iconv reads 11번가's EUC-KR: in glibc on Linux, libiconv on macOS.)
        .target(name: "ShopYCore", dependencies: ["CShopYShim"], swiftSettings: directMetadata,
                linkerSettings: [.linkedLibrary("iconv", .when(platforms: [.macOS]))]),
        // The command line on top of the core: arguments, help, man page, completions, commands,
        // presenters, IO. The core never imports it (a back-edge does not compile).
        .target(name: "ShopYCLI", dependencies: ["ShopYCore"], swiftSettings: directMetadata),
        // The Naver contract on loopback: POSIX sockets, the catalog, faults. Core only.
        .target(name: "ShopYEmulator", dependencies: ["ShopYCore"], swiftSettings: directMetadata),
        // Linux release builds: the Swift runtime and Foundation linked in statically
        // (-static-stdlib; compiling main.swift with it brings in the static libraries' link
        // entries: CoreFoundation, ICU...), so a start pays no dynamic linking of libswiftCore,
        // Foundation, ICU, Dispatch (issues 10, 17). glibc and the dlopen'ed libcurl stay dynamic.
        // Not in debug: EndToEndTests links this target beside XCTest, which needs the shared
        // Foundation. Not supported on Apple platforms, where the runtime is part of the system.
        .executableTarget(name: "shopy", dependencies: ["ShopYCLI"],
                          swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))],
                          linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]),
        .executableTarget(name: "shopy-emulator", dependencies: ["ShopYEmulator"]),
        .executableTarget(name: "shopy-bench", dependencies: ["ShopYCore", "ShopYCLI"], path: "Benchmarks/shopy-bench"),
        .testTarget(name: "ShopYKitTests", dependencies: ["ShopYCore", "ShopYCLI", "ShopYEmulator"], exclude: ["Golden"]),
        .testTarget(name: "EndToEndTests", dependencies: ["shopy", "shopy-emulator", "ShopYCore", "ShopYCLI"]),
    ]
)
