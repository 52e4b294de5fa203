// shopy: parse, run, render, exit. Everything else lives in ShopYCLI (the command line) and ShopYCore (the work).
import ShopYCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A closed pipe (`shopy search … | head`) must end output quietly, not kill us mid-write.
signal(SIGPIPE, SIG_IGN)
// From argv's bytes, so that invalid UTF-8 is refused rather than repaired.
let code = await ShopY.main(rawArguments: RawArguments.process(), io: .process())
exit(code)
