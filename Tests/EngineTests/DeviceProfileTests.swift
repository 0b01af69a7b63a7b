import Engine
import Testing

/// A device profile turns a request's sizes into the reference phone's milliseconds.
@Suite struct DeviceProfileTests {
    @Test(arguments: ["iphone15pro", "custom:1,20"])
    func deviceProfilesEstimateFromTokens(name: String) throws {
        let profile = try #require(DeviceProfile.named(name))
        let estimate = profile.estimatedMilliseconds(promptTokens: 100, outputTokens: 30)
        #expect(estimate == 100 * profile.prefillMillisecondsPerToken + 30 / profile.decodeTokensPerSecond * 1000)
        #expect(DeviceProfile.named("custom:x") == nil && DeviceProfile.named("pixel") == nil)
    }
}
