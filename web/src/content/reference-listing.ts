// reference-listing.ts — the reference code of the article's depth section (block `depth.code1`),
// written once: its code is the same in every language and only its comments are translated. Each
// language's text (en.ts, zh.ts) gives the comments by name and sets the block to
// referenceListing(its comments); `§name` in the template below marks where each one goes.

/** The listing's comments, by what they explain. */
export type ListingComment =
  | 'head'
  | 'sizes'
  | 'ffn'
  | 'init'
  | 'scores'
  | 'preBranch'
  | 'postAdd'
  | 'x5'
  | 'embedding'
  | 'finalLn'
  | 'inputScale'
  | 'postX5'
  | 'lemma2'
  | 'tiedOutput'
  | 'average'
  | 'target'
  | 'perBatch'
  | 'seeds';

const TEMPLATE = String.raw`# §head
import sys, json, torch, torch.nn as nn, torch.nn.functional as F
d, n, V, B = 512, 32, 1000, 8          # §sizes

class Layer(nn.Module):
    def __init__(s, pre):
        super().__init__()
        s.pre = pre
        s.Wq, s.Wk, s.Wv = (nn.Linear(d, d) for _ in range(3))
        s.W1, s.W2 = nn.Linear(d, 2 * d), nn.Linear(2 * d, d)   # §ffn
        s.ln1, s.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        for m in (s.Wq, s.Wk, s.Wv, s.W1, s.W2):
            nn.init.xavier_normal_(m.weight); nn.init.zeros_(m.bias)   # §init

    def attn(s, x):                                     # x: (B, n, d)
        a = s.Wq(x) @ s.Wk(x).transpose(1, 2) / d ** .5  # §scores
        return a.softmax(-1) @ s.Wv(x)

    def forward(s, x):
        ffn = lambda h: s.W2(F.relu(s.W1(h)))
        if s.pre:                                       # §preBranch
            x = x + s.attn(s.ln1(x))
            return x + ffn(s.ln2(x))
        x = s.ln1(x + s.attn(x))                        # §postAdd
        s.x5 = x + ffn(x)                               # §x5
        return s.ln2(s.x5)

class Net(nn.Module):
    def __init__(s, L, pre):
        super().__init__()
        s.E = nn.Parameter(torch.randn(V, d) / d ** .5)  # §embedding
        s.layers = nn.ModuleList(Layer(pre) for _ in range(L))
        s.final = nn.LayerNorm(d) if pre else nn.Identity()   # §finalLn

    def forward(s, tok, tgt):
        x, s.norms = s.E[tok] * d ** .5, []             # §inputScale
        for layer in s.layers:
            x = layer(x)
            h = x if layer.pre else layer.x5            # §postX5
            s.norms.append((h.pow(2).sum(-1).mean() / d).item())    # §lemma2
        logits = s.final(x) @ s.E.t()                   # §tiedOutput
        return F.cross_entropy(logits.reshape(-1, V), tgt.reshape(-1))

def grads(L, pre, batches=20):
    net = Net(L, pre)
    acc = [torch.zeros_like(l.W2.weight) for l in net.layers]; each = [0.] * len(net.layers)
    for _ in range(batches):                            # §average
        net.zero_grad()
        tok = torch.randint(V, (B, n)); tgt = (tok + 1) % V   # §target
        net(tok, tgt).backward()
        for k, l in enumerate(net.layers):
            acc[k] += l.W2.weight.grad / batches
            each[k] += l.W2.weight.grad.norm().item() / batches   # §perBatch
    return [a.norm().item() for a in acc], net.norms, each

if __name__ == '__main__':                              # §seeds
    ms = lambda xs: [round(float(torch.tensor(c).mean()), 3) for c in zip(*xs)] + [round(float(torch.tensor(c).std()), 3) for c in zip(*xs)]
    out = {}
    for pre in (False, True):
        k = 'pre' if pre else 'post'
        runs = [(torch.manual_seed(s), grads(6, pre))[1] for s in range(5)]
        out[k] = {'W2_per_layer': ms([r[0] for r in runs]), 'W2_per_batch': ms([r[2] for r in runs]), 'norm2/d': ms([r[1] for r in runs])}
        lastW2 = {L: [(torch.manual_seed(s), grads(L, pre, 10))[1] for s in range(5)] for L in (6, 8, 10, 12, 14)}
        out[k + '_lastW2_vs_L'] = {L: ms([[r[0][-1], r[2][-1]] for r in rs]) for L, rs in lastW2.items()}
    json.dump(out, sys.stdout, indent=1)`;

/** The listing with a language's comments in their places. */
export const referenceListing = (comments: Record<ListingComment, string>): string => TEMPLATE.replace(/§(\w+)/g, (_, name: ListingComment) => comments[name]);
