extension ModelProfiles {
    /// The profiles a run judges by unless given a file, and what `replay profiles show` prints.
    ///
    /// Read from its own file text by the same reader as any file, so it passes the same checks
    /// and its digest is that of the bytes `replay profiles show` prints. Every number names its
    /// source; where a source gives none, the figure is marked an estimate and says how it was
    /// derived, so a team that has measured its phones replaces it with its own file.
    public static let builtIn: ModelProfiles = {
        guard let profiles = try? ModelProfiles(parsing: Array(builtInText.utf8), file: "the built-in profiles") else {
            preconditionFailure("the built-in profiles do not pass their own checks (ModelProfilesTests say why)")
        }
        return profiles
    }()

    /// The built-in profiles' file.
    public static let builtInText = #"""
        {
          "schema": "replay.profiles/1",
          "name": "built-in",
          "unknown_model": "26.0",
          "devices": [
            {
              "name": "iphone15pro",
              "prefill_ms_per_token": 0.6,
              "decode_tokens_per_s": 30,
              "source": "Apple ML Research, 'Introducing Apple's On-Device and Server Foundation Models', June 2024: 0.6 ms per prompt token to first token, 30 tokens/s on iPhone 15 Pro"
            },
            {
              "name": "iphone16pro",
              "prefill_ms_per_token": 0.6,
              "decode_tokens_per_s": 35,
              "source": "estimate: iPhone 15 Pro's published figures, decoding scaled by memory bandwidth (A18 Pro 60 GB/s, Apple's '17% more memory bandwidth', against A17 Pro 51.2 GB/s); prefill as iPhone 15 Pro (both Neural Engines 35 TOPS)"
            },
            {
              "name": "iphone17pro",
              "prefill_ms_per_token": 0.6,
              "decode_tokens_per_s": 45,
              "source": "estimate: iPhone 15 Pro's published figures, decoding scaled by an assumed memory bandwidth (LPDDR5X-9600, 76.8 GB/s, against 51.2 GB/s); prefill as iPhone 15 Pro, although the A19 Pro's GPU neural accelerators may make it faster (not modelled)"
            }
          ],
          "models": [
            {
              "name": "26.0",
              "from": "26.0",
              "below": "26.4",
              "context_tokens": 4096,
              "tokens": {
                "chars_per_token": { "latin": 3.5, "han": 1.4, "kana": 1.4, "hangul": 1.0, "other": 1.0 },
                "framing_tokens": 24,
                "source": "estimate: latin 3.5, the middle of Apple's rule of thumb of 3 to 4 characters per token (TN3193); han and kana 1.4, measured on the Japanese of corpora/ with Qwen2.5's 151k-token vocabulary as a proxy for the phone model's 150k (1.36); hangul and other scripts 1.0, one token a character, unmeasured and cautious; framing 24 tokens, unmeasured"
              },
              "languages": ["da", "de", "en", "es", "fr", "it", "ja", "ko", "nb", "nl", "no", "pt", "sv", "tr", "vi", "zh"],
              "source": "one model for iOS 26.0 to 26.3 (Apple, 'Updating prompts for new model versions'); 4,096 tokens (Apple TN3193, 'Managing the on-device foundation model's context window'); languages: Apple Intelligence as of iOS 26 (support.apple.com/en-us/121115), 'no' and 'nb' both written Norwegian"
            },
            {
              "name": "26.4",
              "from": "26.4",
              "below": "27.0",
              "context_tokens": 4096,
              "tokens": {
                "chars_per_token": { "latin": 3.5, "han": 1.4, "kana": 1.4, "hangul": 1.0, "other": 1.0 },
                "framing_tokens": 24,
                "source": "estimate: latin 3.5, the middle of Apple's rule of thumb of 3 to 4 characters per token (TN3193); han and kana 1.4, measured on the Japanese of corpora/ with Qwen2.5's 151k-token vocabulary as a proxy for the phone model's 150k (1.36); hangul and other scripts 1.0, one token a character, unmeasured and cautious; framing 24 tokens, unmeasured"
              },
              "languages": ["da", "de", "en", "es", "fr", "it", "ja", "ko", "nb", "nl", "no", "pt", "sv", "tr", "vi", "zh"],
              "source": "one model for iOS 26.4 (Apple, 'Updating prompts for new model versions'); contextSize reports 4,096 tokens on 26.x (WWDC26 session 319); languages as 26.0"
            },
            {
              "name": "27.0",
              "from": "27.0",
              "context_tokens": 8192,
              "tokens": {
                "chars_per_token": { "latin": 3.5, "han": 1.4, "kana": 1.4, "hangul": 1.0, "other": 1.0 },
                "framing_tokens": 24,
                "source": "estimate: latin 3.5, the middle of Apple's rule of thumb of 3 to 4 characters per token (TN3193); han and kana 1.4, measured on the Japanese of corpora/ with Qwen2.5's 151k-token vocabulary as a proxy for the phone model's 150k (1.36); hangul and other scripts 1.0, one token a character, unmeasured and cautious; framing 24 tokens, unmeasured"
              },
              "languages": ["da", "de", "en", "es", "fr", "it", "ja", "ko", "nb", "nl", "no", "pt", "sv", "tr", "vi", "zh"],
              "source": "the model of iOS 27 (WWDC26 session 241, 'rebuilt from the ground up'); contextSize reports 8,192 tokens on 27.0 on newer devices (WWDC26 session 319), which devices are newer is not named there, so a team that knows sets context_tokens_by_device; languages as 26.x (the sources name no newer list)"
            }
          ],
          "queue": {
            "cold_start_ms": 1000,
            "idle_unload_s": 60,
            "prewarm_lead_ms": 1500,
            "source": "estimate: Apple publishes no load time, unload policy or prewarm timing; cold start 1,000 ms, the order of reading a model of about 1 GB (3B parameters at 2 bits) from flash and preparing it; unloaded after 60 s idle, a guess; a person's thread open 1,500 ms before they send, the least time to open it or focus the composer and type a short message"
          }
        }

        """#

    /// The queue figures of a profiles file that gives none: the built-in estimates.
    public static let estimatedQueue = PhoneQueueModel(
        coldStartMilliseconds: 1000, idleUnloadMilliseconds: 60_000, prewarmLeadMilliseconds: 1500,
        source: "estimate: the built-in figures (this profiles file gives no queue); Apple publishes none")
}
