import Synchronization

/// Which request of a call each lane of a pool answers next: every lane starts on its own run of
/// neighbours and takes them from the front; a lane whose run is done takes from the back of the
/// run with the most work left.
///
/// A split made before any answer is known cannot be even: outputs stop where the model stops,
/// so one lane used to sit idle while the other finished (2.6 s of chips' 23.7 s over the first
/// 50 requests of the sample). Taking from the back keeps both the owner's and the taker's
/// requests neighbours, which share the most (a group's member list, an agent's newest
/// replies), and each index is handed out exactly once. Thread-safe.
final class RequestHandout: Sendable {
    private struct Run {
        var front: Int
        var back: Int
        var work: Int
    }

    private let work: [Int]
    private let runs: Mutex<[Run]>

    /// Lane `i` starts on `ranges[i]`; `work` is each request's estimated work (for choosing
    /// whom to take from).
    init(ranges: [Range<Int>], work: [Int]) {
        self.work = work
        runs = Mutex(ranges.map { range in
            Run(front: range.lowerBound, back: range.upperBound, work: range.reduce(0) { $0 + work[$1] })
        })
    }

    /// The next request for `lane`: the front of its own run, else the back of the run with the
    /// most work left among those holding two or more; nil when none is left to take.
    func take(lane: Int) -> Int? {
        let work = self.work
        return runs.withLock { runs in
            if runs[lane].front < runs[lane].back {
                let index = runs[lane].front
                runs[lane].front += 1
                runs[lane].work -= work[index]
                return index
            }
            // Only from a run of two or more: its owner always has a next request to start on.
            guard let victim = runs.indices.filter({ runs[$0].back - runs[$0].front >= 2 })
                .max(by: { runs[$0].work < runs[$1].work }) else { return nil }
            runs[victim].back -= 1
            let index = runs[victim].back
            runs[victim].work -= work[index]
            return index
        }
    }

    /// How many requests are left to hand out, on every lane's run.
    var remaining: Int {
        runs.withLock { runs in runs.reduce(0) { $0 + $1.back - $1.front } }
    }

    /// Whether `take(lane:)` would give `lane` nothing now (and so ever after).
    func isExhausted(for lane: Int) -> Bool {
        runs.withLock { runs in
            runs[lane].front >= runs[lane].back && !runs.contains { $0.back - $0.front >= 2 }
        }
    }

    /// The requests `lane` would take next from its own run, at most `limit`, then those any lane
    /// may take next from another run: the front `limit` of each (its owner's next) and the back
    /// `limit` (a finished lane's next). For looking ahead at prompts a lane will share with, in
    /// its own cache or, kept for the call, in another lane's (`LlamaEnginePool`).
    func upcoming(lane: Int, limit: Int) -> [Int] {
        runs.withLock { runs in
            var indices = Array(runs[lane].front..<min(runs[lane].back, runs[lane].front + limit))
            for (other, run) in runs.enumerated() where other != lane && run.front < run.back {
                indices += run.front..<min(run.back, run.front + limit)
                indices += min(run.back, max(run.front + limit, run.back - limit))..<run.back
            }
            return indices
        }
    }
}
