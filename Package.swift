// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "shopy",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "shopy", targets: ["shopy"]),
        .executable(name: "shopy-emulator", targets: ["shopy-emulator"]),
        .library(name: "ShopYCatalog", targets: ["ShopYCatalog"]),
        .library(name: "ShopYCore", targets: ["ShopYCore"]),
        .library(name: "ShopYCLI", targets: ["ShopYCLI"]),
    ],
    targets: [
        // A tiny C target for the system headers Glibc does not export (netlink, ioctl helpers).
        // Also libcurl's declarations: the Linux transport opens it with dlopen (libdl on older glibc).
        .target(name: "CShopYShim", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // What every part shares: the model, JSON, text, file IO and the store's errors.
        .target(name: "ShopYBase"),
        // The offline catalog's engine behind a narrow API (open, search, import, summary,
        // export): its files, index and mapped bytes live here and nowhere else.
        .target(name: "ShopYCatalog", dependencies: ["ShopYBase"]),
        // The work, with no command line: store, network, HTTP, product sources, trends,
        // prices, widget, launch, and the services that return typed results.
        // (iconv reads 11번가's EUC-KR: in glibc on Linux, libiconv on macOS.)
        .target(name: "ShopYCore", dependencies: ["ShopYBase", "ShopYCatalog", "CShopYShim"],
                linkerSettings: [.linkedLibrary("iconv", .when(platforms: [.macOS]))]),
        // The command line on top of the core: arguments, help, man page, completions, commands,
        // presenters, IO. The core never imports it (a back-edge does not compile).
        .target(name: "ShopYCLI", dependencies: ["ShopYBase", "ShopYCatalog", "ShopYCore"]),
        // The Naver contract on loopback: POSIX sockets, the catalog, faults. Core only.
        .target(name: "ShopYEmulator", dependencies: ["ShopYBase", "ShopYCatalog", "ShopYCore"]),
        // Released statically linked: Scripts/release.sh (swift build -c release --static-swift-stdlib).
        .executableTarget(name: "shopy", dependencies: ["ShopYCLI"]),
        .executableTarget(name: "shopy-emulator", dependencies: ["ShopYEmulator"]),
        .executableTarget(name: "shopy-bench", dependencies: ["ShopYBase", "ShopYCatalog", "ShopYCore", "ShopYCLI", "ShopYTestSupport"],
                          path: "Benchmarks/shopy-bench"),
        // What the tests and shopy-bench share, on Foundation and ShopYBase alone (no XCTest): the
        // loopback listener, the scripted HTTP server on it, a raw HTTP exchange, running a
        // process with both pipes drained, a seeded generator, and the repository's root.
        .target(name: "ShopYTestSupport", dependencies: ["ShopYBase"], path: "Tests/ShopYTestSupport"),
        // What the tests of the core and of its users share that needs the core's types (no
        // XCTest either): the test clock, a fixed product source.
        .target(name: "ShopYCoreTestSupport", dependencies: ["ShopYCore", "ShopYTestSupport"], path: "Tests/ShopYCoreTestSupport"),
        // The tests, one target per module, folders mirroring Sources/<Target>/ (docs/architecture.md, Tests).
        .testTarget(name: "ShopYBaseTests", dependencies: ["ShopYBase", "ShopYTestSupport"]),
        .testTarget(name: "ShopYCatalogTests", dependencies: ["ShopYBase", "ShopYCatalog"]),
        // ShopYCLI for ExitCode(for:) alone: errors become exit codes in one place, the CLI's.
        .testTarget(name: "ShopYCoreTests", dependencies: ["ShopYBase", "ShopYCatalog", "ShopYCore", "ShopYCLI", "ShopYTestSupport",
                                                     "ShopYCoreTestSupport"],
                    exclude: ["Pictures/Golden"]),
        // The command line's tests run commands in process against the emulator's server, too.
        .testTarget(name: "ShopYCLITests", dependencies: ["ShopYBase", "ShopYCatalog", "ShopYCore", "ShopYCLI", "ShopYEmulator", "ShopYTestSupport",
                                                    "ShopYCoreTestSupport"],
                    exclude: ["Golden"]),
        .testTarget(name: "ShopYEmulatorTests", dependencies: ["ShopYBase", "ShopYCatalog", "ShopYCore", "ShopYEmulator", "ShopYTestSupport",
                                                         "ShopYCoreTestSupport"]),
        // The built binaries, spawned as a user runs them.
        .testTarget(name: "EndToEndTests", dependencies: ["shopy", "shopy-emulator", "ShopYBase", "ShopYCatalog", "ShopYCore", "ShopYCLI",
                                                  "ShopYTestSupport"]),
    ]
)
