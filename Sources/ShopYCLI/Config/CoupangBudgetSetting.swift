import ShopYCore

/// `coupang-per-hour` (config, SHOPY_COUPANG_PER_HOUR): no command has it as an option, so a
/// refused value stops only a command that asks Coupang (through `Context.coupangBudget`).
enum CoupangBudgetSetting {
    static func resolve(_ config: ConfigResolution) -> Result<Int, UsageError> {
        guard let entry = config.entry("coupang-per-hour") else { return .success(CoupangClient.defaultBudget) }
        if let invalid = entry.invalid { return .failure(invalid) }
        return .success(entry.value.flatMap(Int.init) ?? CoupangClient.defaultBudget)
    }
}
