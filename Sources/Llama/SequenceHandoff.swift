import Synchronization

/// Sequences in flight passed from a busy lane of a pool to an idle one at a call's end.
///
/// Once every request of a call is handed out (`RequestHandout`), a lane whose sequences finish
/// first would sit idle while another still answers several: outputs stop where the model stops,
/// so no split made in advance comes out even. A lane holding at least two sequences more than an idle one, and at
/// least three, gives it one, cells and all: the sequence goes on in the other lane's context
/// token for token as it would have in its own (evaluation depends on neither the batch nor the
/// context, see `LlamaEngine`). A lane waiting for one stops once no lane could give it any.
/// Thread-safe.
final class SequenceHandoff: Sendable {
    /// A sequence on its way: its slot and its cells (`LlamaContext.save`).
    struct Parcel: @unchecked Sendable {
        let slot: LlamaEngine.Slot
        let state: [UInt8]
    }

    private struct Lanes: ~Copyable {
        /// Sequences in flight per lane, once it has nothing left to take (nil before).
        var active: [Int?]
        /// Lanes whose part of the call is over.
        var done: [Bool]
        /// Sequences promised to each lane and not yet received.
        var promised: [Int]
        var parcels: [[Parcel]]
    }

    private let lanes: Mutex<Lanes>
    /// The fewest sequences a lane passes one of (three: with two, each lane would evaluate one
    /// sequence and a companion token per step, no faster than one lane evaluating both).
    let fewestToPass: Int

    init(lanes count: Int, fewestToPass: Int = 3) {
        precondition(fewestToPass >= 2)
        self.fewestToPass = fewestToPass
        lanes = Mutex(Lanes(active: Array(repeating: nil, count: count), done: Array(repeating: false, count: count),
                            promised: Array(repeating: 0, count: count),
                            parcels: Array(repeating: [], count: count)))
    }

    /// Records that `lane`, with nothing left to take, has `active` sequences in flight; returns
    /// the lane it should give one of them to now, if any (that lane is then promised one).
    func report(lane: Int, active: Int) -> Int? {
        lanes.withLock { lanes in
            lanes.active[lane] = active
            guard active >= fewestToPass else { return nil }
            let idle = lanes.active.indices.filter { $0 != lane && !lanes.done[$0] && lanes.active[$0] != nil }
            guard let taker = idle.min(by: { lanes.active[$0]! < lanes.active[$1]! }),
                  lanes.active[taker]! + 2 <= active else { return nil }
            lanes.active[taker]! += 1
            lanes.active[lane] = active - 1
            lanes.promised[taker] += 1
            return taker
        }
    }

    /// Delivers a promised sequence to `lane`.
    func give(_ parcel: Parcel, to lane: Int) {
        lanes.withLock { $0.parcels[lane].append(parcel) }
    }

    /// The sequences delivered to `lane` since it last asked.
    func receive(lane: Int) -> [Parcel] {
        lanes.withLock { lanes in
            let parcels = lanes.parcels[lane]
            lanes.parcels[lane].removeAll()
            lanes.promised[lane] -= parcels.count
            return parcels
        }
    }

    /// Whether `lane`, with nothing in flight and nothing to take, may still be given a sequence:
    /// one is promised to it, or another lane still at work holds three or more or is still
    /// taking requests. Once false it stays false: a lane with nothing left to take only loses
    /// sequences, except to lanes that ask.
    func mayReceive(lane: Int) -> Bool {
        lanes.withLock { lanes in
            if lanes.promised[lane] > 0 || !lanes.parcels[lane].isEmpty { return true }
            return lanes.active.indices.contains { other in
                other != lane && !lanes.done[other] && (lanes.active[other].map { $0 >= fewestToPass } ?? true)
            }
        }
    }

    /// Records that `lane` answers nothing more in this call: it is given nothing from now on.
    func finish(lane: Int) {
        lanes.withLock { $0.done[lane] = true }
    }
}
