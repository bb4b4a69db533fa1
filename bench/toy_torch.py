#!/usr/bin/env python3
"""toy_torch.py — the toy warm-up model of Figure 4 in PyTorch, as a speed peer for `npm run bench`.

Same model and step as the engine's TrainRun (wasm/trainer.cpp): causal single-head Transformer,
8 layers, d = 128, d_ff = 512, V = 256, 8 × 64 tokens per step, Post-LN or Pre-LN, tied embedding,
Adam β = (0.9, 0.98), ε = 1e-8, linear warm-up. Data: an order-1 Markov chain with 4 successors
per token, fresh random walks every step. It uses PyTorch's own RNG, so its curves are statistically
like the engine's, not identical; the benchmark reads only its wall time.

usage: toy_torch.py [--threads 1] [--blas-threads 2] [--steps 500] [--part I/N]
                   [--grid | --norm pre --warmup 0 --lr 1e-3 --seed 0]
  --threads       PyTorch's intra-op threads (torch.set_num_threads)
  --blas-threads  OpenBLAS's threads (OPENBLAS_NUM_THREADS, set before torch loads). Both at 2 on a
                  2-core machine oversubscribe it (measured 2.5x slower); scripts/bench.mjs runs
                  torch 1 + OpenBLAS 2 in one process, and two processes of 1 + 1 on halves of the grid.
  --part I/N      only the grid's runs I, I+N, I+2N, ... (to split the grid over processes)
prints one JSON line: {"threads", "blas_threads", "steps", "runs", "seconds", "seconds_per_step", "blas", "final_losses"}
"""
import argparse, json, math, os, sys, time

if "--blas-threads" in sys.argv:
    os.environ["OPENBLAS_NUM_THREADS"] = sys.argv[sys.argv.index("--blas-threads") + 1]
import torch, torch.nn as nn, torch.nn.functional as F

D, DFF, V, L, B, N = 128, 512, 256, 8, 8, 64


class Layer(nn.Module):
    def __init__(self, pre):
        super().__init__()
        self.pre = pre
        self.q, self.k, self.v = (nn.Linear(D, D) for _ in range(3))
        self.w1, self.w2 = nn.Linear(D, DFF), nn.Linear(DFF, D)
        self.ln1, self.ln2 = nn.LayerNorm(D), nn.LayerNorm(D)
        for m in (self.q, self.k, self.v, self.w1, self.w2):
            nn.init.xavier_normal_(m.weight)
            nn.init.zeros_(m.bias)
        self.register_buffer("mask", torch.triu(torch.ones(N, N, dtype=torch.bool), 1))

    def attn(self, x):
        s = self.q(x) @ self.k(x).transpose(1, 2) / D ** 0.5
        return s.masked_fill(self.mask, float("-inf")).softmax(-1) @ self.v(x)

    def forward(self, x):
        ffn = lambda h: self.w2(F.relu(self.w1(h)))
        if self.pre:
            x = x + self.attn(self.ln1(x))
            return x + ffn(self.ln2(x))
        x = self.ln1(x + self.attn(x))
        return self.ln2(x + ffn(x))


class Net(nn.Module):
    def __init__(self, pre):
        super().__init__()
        self.E = nn.Parameter(torch.randn(V, D) / D ** 0.5)
        self.layers = nn.ModuleList(Layer(pre) for _ in range(L))
        self.final = nn.LayerNorm(D) if pre else nn.Identity()

    def forward(self, tok, tgt):
        x = self.E[tok] * D ** 0.5
        for layer in self.layers:
            x = layer(x)
        return F.cross_entropy((self.final(x) @ self.E.t()).reshape(-1, V), tgt.reshape(-1))


def run(norm, warmup, lr, seed, steps, succ):
    torch.manual_seed(seed)
    net = Net(norm == "pre")
    opt = torch.optim.Adam(net.parameters(), lr=lr, betas=(0.9, 0.98), eps=1e-8)
    loss = None
    for t in range(1, steps + 1):
        for g in opt.param_groups:
            g["lr"] = lr * t / warmup if warmup and t <= warmup else lr
        walk = torch.empty(B, N + 1, dtype=torch.long)
        walk[:, 0] = torch.randint(V, (B,))
        for i in range(N):
            walk[:, i + 1] = succ[walk[:, i], torch.randint(4, (B,))]
        opt.zero_grad(set_to_none=True)
        loss = net(walk[:, :-1], walk[:, 1:])
        loss.backward()
        opt.step()
    return float(loss)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--blas-threads", type=int, default=2)
    ap.add_argument("--part", default="0/1")
    ap.add_argument("--steps", type=int, default=500)
    ap.add_argument("--grid", action="store_true")
    ap.add_argument("--norm", default="pre")
    ap.add_argument("--warmup", type=int, default=0)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    g = torch.Generator().manual_seed(1234)
    succ = torch.stack([torch.randperm(V, generator=g)[:4] for _ in range(V)])
    configs = ([(n, w, lr, s) for n in ("post", "pre") for w in (0, 300) for lr in (1e-3, 3e-3) for s in (0, 1)]
               if a.grid else [(a.norm, a.warmup, a.lr, a.seed)])
    part, parts = (int(x) for x in a.part.split("/"))
    configs = configs[part::parts]
    t0 = time.perf_counter()
    finals = [run(*c, a.steps, succ) for c in configs]
    sec = time.perf_counter() - t0
    # Debian's torch links the generic libblas.so.3; which library that is depends on the
    # alternatives system (reference BLAS, or OpenBLAS once libopenblas0-pthread is installed).
    # Read the library actually mapped into this process.
    blas = "unknown"
    try:
        maps = open("/proc/self/maps").read()
        libs = sorted({l.split()[-1] for l in maps.splitlines() if "blas" in l.lower() and "/" in l})
        real = [__import__("os").path.realpath(x) for x in libs]
        blas = ", ".join(sorted(set(real))) or "none mapped"
    except Exception:
        pass
    print(json.dumps({"threads": a.threads, "blas_threads": a.blas_threads, "steps": a.steps, "runs": len(configs), "seconds": sec,
                      "seconds_per_step": sec / (a.steps * len(configs)), "torch": torch.__version__,
                      "blas": blas, "final_losses": finals}))


if __name__ == "__main__":
    main()
