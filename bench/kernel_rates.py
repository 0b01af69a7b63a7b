#!/usr/bin/env python3
"""What llama.cpp's kernels charge per token at their best, on this machine, for bench/model.sh.

No engine can evaluate a token for less than libllama's kernels take for it, so these rates bound
every engine built on them, replay's and the peer's alike. Measured on the same libllama.so and
model, with invented token ids (no corpus is read), in the shapes that cost least per token:

    prefill   one sequence's prompt rows in one evaluation (64, 128, 256 or 512 rows)
    generate  one new token in each of 8, 16 or 32 sequences (200 cells each) in one evaluation

each either in one context on every thread, or in one single-thread context per thread side by
side (ctypes lets go of the GIL while llama_decode runs). Each arrangement is evaluated 11 times;
its rate is the median, and the arrangement with the lowest median is the one printed, in
milliseconds per token:

    prefill        MEDIAN_MS  ARRANGEMENT
    generate       MEDIAN_MS  ARRANGEMENT
    prefill-best   BEST_MS    ARRANGEMENT      (the fastest of the 11: a moment, not a rate)
    generate-best  BEST_MS    ARRANGEMENT

The median, not the fastest: on a shared host one evaluation in a few runs well ahead of the
rest (a 128-row prompt's rate in 60 evaluations: fastest 3.7 ms per token, median 4.4, slowest
5.8), and a job of many seconds runs at the rate the kernels hold, not at their luckiest moment.

Without --only, also how a prompt token's cost grows with the cells before it (its queries meet
every one): 128 rows at positions 0, 512, 1,024 and 2,048 of one sequence, in one context of
every thread, in turn, each the median of 9, as factors of position 0's rate (each at least
the one before: a token further on does strictly more work, so less is the host's noise):

    position  512  FACTOR

With --only FILE (an earlier output of this script, on the same model and threads) only the two
arrangements that file names are measured: bench/model.sh measures every arrangement once, then
only the best two beside each job, in seconds rather than minutes (the position factors, a ratio
of two rates of the same kernels, come from the first measurement). The sequences' 200 cells of
context before generating are evaluated once, in the first sequence, and copied to the others
(llama_memory_seq_cp): copying cells costs no arithmetic, and a generated token's work depends on
how many cells it attends to, not on what they hold.

usage: kernel_rates.py --model PATH [--threads N] [--only FILE]     (PYTHONPATH and LLAMA_CPP_LIB_PATH as for the peer)
"""
import argparse
import os
import statistics
import sys
import threading
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", required=True)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--only")
    args = parser.parse_args()
    only = None
    if args.only:
        only = {fields[2] for fields in (line.rstrip("\n").split("\t") for line in open(args.only))
                if len(fields) == 3 and fields[0] in ("prefill", "generate")}
        if len(only) != 2:
            raise SystemExit(f"kernel_rates: {args.only} does not name a prefill and a generate arrangement")

    import llama_cpp as L

    L.llama_backend_init()
    quiet = L.llama_log_callback(lambda level, text, data: None)  # kept alive: llama.cpp holds it
    L.llama_log_set(quiet, None)
    params = L.llama_model_default_params()
    params.use_extra_bufts = False  # no repacked weights, as replay loads them (LlamaModel: exact answers)
    model = L.llama_model_load_from_file(args.model.encode(), params)
    if not model:
        raise SystemExit("kernel_rates: the model did not load")

    def context(sequences, threads, cells):
        params = L.llama_context_default_params()
        params.n_ctx = sequences * cells
        params.n_batch = params.n_ubatch = 512
        params.n_seq_max = sequences
        params.n_threads = params.n_threads_batch = threads
        params.kv_unified = False  # a buffer per sequence, as replay's engine has
        params.flash_attn_type = 0  # matrix-product attention, replay's default
        params.no_perf = True
        ctx = L.llama_init_from_model(model, params)
        if not ctx:
            raise SystemExit("kernel_rates: no context")
        return ctx

    def token(i):
        return 100 + (i * 7919) % 40000

    class Lane:
        """One context and its batch; positions kept per sequence."""

        def __init__(self, sequences, threads, cells=1024):
            self.ctx = context(sequences, threads, cells)
            self.memory = L.llama_get_memory(self.ctx)
            self.batch = L.llama_batch_init(512, 0, 1)
            self.positions = [0] * sequences

        def decode(self, items):
            """Evaluates (token, sequence, wants_logits) items; returns the seconds it took."""
            batch = self.batch
            batch.n_tokens = len(items)
            for i, (tok, seq, logits) in enumerate(items):
                batch.token[i], batch.pos[i] = tok, self.positions[seq]
                batch.n_seq_id[i], batch.seq_id[i][0], batch.logits[i] = 1, seq, logits
                self.positions[seq] += 1
            started = time.perf_counter()
            if L.llama_decode(self.ctx, batch) != 0:
                raise SystemExit("kernel_rates: llama_decode failed")
            return time.perf_counter() - started

        def clear(self):
            L.llama_memory_clear(self.memory, True)
            self.positions = [0] * len(self.positions)

        def prefill(self, rows):
            self.clear()
            return self.decode([(token(i), 1, i == rows - 1) for i in range(rows)])

        def fill(self, sequences, cells):
            self.clear()
            self.decode([(token(i + 1), 1, False) for i in range(cells)])
            for seq in range(2, sequences + 1):
                L.llama_memory_seq_cp(self.memory, 1, seq, -1, -1)
                self.positions[seq] = cells

        def generate(self, sequences):
            return self.decode([(token(seq), seq, True) for seq in range(1, sequences + 1)])

    def side_by_side(lanes, work):
        """Runs work(lane) on every lane at once; the wall time."""
        workers = [threading.Thread(target=work, args=(lane,)) for lane in lanes]
        started = time.perf_counter()
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        return time.perf_counter() - started

    repeats = 11

    def rate(seconds, tokens):
        """(median, fastest) milliseconds per token of repeated evaluations of `tokens` tokens."""
        return statistics.median(seconds) / tokens * 1000, min(seconds) / tokens * 1000
    wanted = lambda arrangement: only is None or arrangement in only
    prefill, generate = [], []
    one_label = f"one context of {args.threads} threads"
    if any(wanted(f"{rows} rows, {one_label}") for rows in (64, 128, 256, 512)) \
            or any(wanted(f"{sequences} sequences, {one_label}") for sequences in (8, 16, 32)):
        one = Lane(33, args.threads)
        for rows in (64, 128, 256, 512):
            if not wanted(arrangement := f"{rows} rows, {one_label}"):
                continue
            one.prefill(rows)  # warm-up
            prefill.append((*rate([one.prefill(rows) for _ in range(repeats)], rows), arrangement))
        for sequences in (8, 16, 32):
            if not wanted(arrangement := f"{sequences} sequences, {one_label}"):
                continue
            one.fill(sequences, 200)
            one.generate(sequences)
            generate.append((*rate([one.generate(sequences) for _ in range(repeats)], sequences), arrangement))
        del one

    lanes_label = f"{args.threads} one-thread contexts"
    if args.threads > 1 and (any(wanted(f"{rows} rows, {lanes_label}") for rows in (128, 256))
                             or any(wanted(f"{sequences} sequences, {lanes_label}") for sequences in (8, 16))):
        lanes = [Lane(17, 1) for _ in range(args.threads)]
        for rows in (128, 256):
            if not wanted(arrangement := f"{rows} rows, {lanes_label}"):
                continue
            for lane in lanes:
                lane.prefill(rows)
            walls = [side_by_side(lanes, lambda lane: lane.prefill(rows)) for _ in range(repeats)]
            prefill.append((*rate(walls, rows * len(lanes)), arrangement))
        for sequences in (8, 16):
            if not wanted(arrangement := f"{sequences} sequences, {lanes_label}"):
                continue
            for lane in lanes:
                lane.fill(sequences, 200)
            walls = [side_by_side(lanes, lambda lane: lane.generate(sequences)) for _ in range(repeats)]
            generate.append((*rate(walls, sequences * len(lanes)), arrangement))
    if not prefill or not generate:
        raise SystemExit(f"kernel_rates: {args.only} names an arrangement this script does not measure")

    positions = []
    if only is None:
        # A prompt token's cost by the cells before it: one sequence filled to 2,048 cells once,
        # copied whole into another and cut back to each position before its 128 rows.
        lane = Lane(3, args.threads, 4096)
        for start in range(0, 2048, 512):
            lane.decode([(token(i), 1, i == start + 511) for i in range(start, start + 512)])
        seconds = {at: [] for at in (0, 512, 1024, 2048)}
        for repeat in range(10):
            # The positions in turn, so a drift of the host's speed moves each alike.
            for at in seconds:
                L.llama_memory_seq_rm(lane.memory, 2, -1, -1)
                if at:
                    L.llama_memory_seq_cp(lane.memory, 1, 2, -1, -1)
                    L.llama_memory_seq_rm(lane.memory, 2, at, -1)
                lane.positions[2] = at
                took = lane.decode([(token(i + 3), 2, i == 127) for i in range(128)])
                if repeat:  # the first round is a warm-up
                    seconds[at].append(took)
        medians = {at: statistics.median(values) for at, values in seconds.items()}
        # A token further on does strictly more work (its queries meet more cells): a factor
        # under the one before it is the host's noise, and the floor takes the one before.
        positions, factor = [], 1.0
        for at in (512, 1024, 2048):
            factor = max(factor, medians[at] / medians[0])
            positions.append((at, factor))
        del lane

    for name, rates in (("prefill", prefill), ("generate", generate)):
        for median, fastest, arrangement in rates:
            print(f"kernel_rates: {name} {median:.3f} ms/token (fastest {fastest:.3f}): {arrangement}", file=sys.stderr)
        median, fastest, arrangement = min(rates)
        print(f"{name}\t{median:.3f}\t{arrangement}")
        print(f"{name}-best\t{fastest:.3f}\t{arrangement}")
    for at, factor in positions:
        print(f"position\t{at}\t{factor:.3f}")

if __name__ == "__main__":
    main()
