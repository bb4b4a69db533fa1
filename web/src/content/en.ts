// en.ts — the English text of ln-explorable. Prose only; measured numbers come in through {{key}}
// bindings (web/src/lib/prose-numbers.ts), TeX sits in String.raw templates (`r`) so backslashes stay literal.
import type { Article } from './types';

const r = String.raw;

const article: Article = {
  lang: 'en',
  title: 'Where LayerNorm sits sets the gradient scale at initialization',
  subtitle:
    'Why a Post-LN Transformer needs learning-rate warm-up and a Pre-LN one mostly does not: a close reading of Xiong et al. 2020, “On Layer Normalization in the Transformer Architecture”, with measurements your browser can rerun.',
  evidenceLabels: {
    paper: 'from the paper',
    inferred: 'inferred',
    guess: 'guess',
    measured: 'measured',
  },
  sections: [
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'hook',
      title: 'One warm-up between BLEU 8.45 and 34',
      blocks: [
        {
          kind: 'p',
          text: r`Take the standard Transformer, six encoder layers and six decoder layers, and train it on IWSLT14 German→English with Adam at a peak learning rate of $10^{-3}$ or $5\times10^{-4}$. Leave out learning-rate warm-up and you get BLEU 8.45. Put in 4000 warm-up steps and you get about 34. The model is the same, the data are the same, the peak rate is the same. The only thing that changed is the path the learning rate takes over the first few thousand steps.`,
          evidence: 'paper',
          evidenceNote: 'p. 4 and Fig. 2(a)',
        },
        {
          kind: 'p',
          text: r`Warm-up itself is a single line. For the first $T_{\text{warmup}}$ steps the rate climbs in a straight line from zero to its peak:`,
        },
        {
          kind: 'math',
          tex: r`\mathrm{lr}(t)=\frac{t}{T_{\text{warmup}}}\,\mathrm{lr}_{\max},\qquad t\le T_{\text{warmup}}`,
        },
        {
          kind: 'p',
          text: r`Plug in numbers to see what it does. With $T_{\text{warmup}}=4000$ and $\mathrm{lr}_{\max}=10^{-3}$, step 1 runs at $2.5\times10^{-7}$, step 400 at $10^{-4}$, and the full peak arrives only at step 4000. For its first few hundred steps the model hardly moves at all; mostly it just reads gradients.`,
        },
        {
          kind: 'p',
          text: r`You cannot tune the length and the peak separately, either. Cut warm-up to 500 steps: with $\mathrm{lr}_{\max}=5\times10^{-4}$ BLEU is still 31.16, with $10^{-3}$ it collapses to 2.77.`,
        },
        {
          kind: 'paperFigure',
          text: r`The paper’s Figure 2 (p. 4). The left two panels use Adam, the right two use SGD. The curves worth looking at are the BLEU curves lying flat along the bottom of each panel: every one of them is a run with no warm-up, or with too short a one. The paper never says which peak learning rate the 8.45 belongs to.`,
        },
        {
          kind: 'p',
          text: r`Two explanations were going around at the time. The first came from large-batch training (Goyal et al. 2017): with very large batches, a big learning rate at the very start shoves the model into a bad region, so you ramp up gently. But the batches here hold 4096 tokens, which is nowhere near large-batch territory.`,
          evidence: 'paper',
          evidenceNote: 'pp. 4–5',
        },
        {
          kind: 'p',
          text: r`The second came from RAdam (Liu et al. 2019a, “On the Variance of the Adaptive Learning Rate and Beyond”). During the first steps Adam’s second-moment estimate $v_t$ has seen only a handful of gradients, so it is very noisy and the adaptive step size lurches up and down; warm-up simply waits until $v_t$ is trustworthy.`,
        },
        {
          kind: 'p',
          text: r`The authors push the second explanation halfway off the table with one control. Swap Adam for plain SGD, which keeps no second moment at all. Without warm-up it fails as well: after 15 epochs BLEU has barely left 0. If you need warm-up even without Adam, Adam cannot be the whole story.`,
          evidence: 'paper',
          evidenceNote: 'pp. 4–5',
        },
        {
          kind: 'p',
          text: r`Take this control with some salt. In Fig. 2(b), SGD *with* warm-up also ends far below Adam. SGD is simply bad at training Transformers, and a run that fails may be failing for more than one reason. We come back to this when we get to Adam.`,
        },
        {
          kind: 'p',
          text: r`The authors bet on another direction. Warm-up only acts during the first few thousand steps, so go to step 0, the instant of initialization, and look at what the gradient is like there.`,
        },
        {
          kind: 'p',
          text: r`In hindsight they were holding three cards:`,
          evidence: 'inferred',
          evidenceNote: 'introduction, p. 2; related work, p. 2',
        },
        {
          kind: 'list',
          ordered: true,
          items: [
            r`**An observation that is almost impossible to argue with.** A single scheduling hyperparameter swings BLEU between 8.45 and 34.`,
            r`**The tools.** The same group (Di He, Liwei Wang, Tie-Yan Liu) had analysed the Transformer as a dynamical system the year before (Lu et al. 2019), and the mean-field-theory way of studying initialization was familiar ground to them.`,
            r`**The strongest card: the fix already existed.** Pre-LN was implemented in Tensor2Tensor and was a command-line switch in fairseq, so anyone could try it without changing a line of code.`,
          ],
        },
        {
          kind: 'p',
          text: r`So the paper did not invent Pre-LN. What it contributes is an explanation of why Pre-LN is easy to train, and, on the strength of that, the removal of warm-up. At about the same time Nguyen & Salazar (2019, “Transformers without Tears”) found experimentally that Pre-LN trains without warm-up; what this paper adds is the theory.`,
          evidence: 'inferred',
          evidenceNote: 'introduction, p. 2; related work, p. 2',
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'placements',
      title: 'Two places to put the norm',
      blocks: [
        {
          kind: 'p',
          text: r`Every Transformer layer has two sublayers, self-attention and a feed-forward network (FFN). Each is wrapped in a residual connection and a LayerNorm (LN from here on). The paper compares exactly one thing: where that LN goes. In two lines:`,
        },
        {
          kind: 'math',
          tex: r`\text{Post-LN:}\quad x\leftarrow \role{norm}{\mathrm{LN}}\big(\role{in}{x}+\role{op}{F}(\role{in}{x})\big)\qquad\qquad \text{Pre-LN:}\quad x\leftarrow \role{in}{x}+\role{op}{F}\big(\role{norm}{\mathrm{LN}}(\role{in}{x})\big)`,
        },
        {
          kind: 'p',
          text: r`Here $\role{op}{F}$ is first the attention, then the FFN. Post-LN is how the original 2017 Transformer and BERT are written: add, then normalize. Pre-LN moves the LN to the entrance of the sublayer: normalize, run the sublayer, and add its output straight back onto the trunk. Because the trunk is then never normalized anywhere along the way, Pre-LN puts one extra LN at the very end of the network, just before the output layer.`,
        },
        { kind: 'figure', id: 'fig1' },
        {
          kind: 'p',
          text: r`Now read the figure as one long trunk line, and the difference is immediate. In Post-LN an LN sits on the trunk after every sublayer, so signal and gradient pass through two normalizations in every layer. In Pre-LN the trunk holds nothing but plus signs, from the word embedding all the way to the final LN; nothing on the way changes its scale. The sublayers hang off to the side like branches that can only add to it.`,
        },
        {
          kind: 'p',
          text: r`Everything derived below is derived on these two trunks. To make it computable the paper simplifies three things (p. 5):`,
        },
        {
          kind: 'list',
          ordered: true,
          items: [
            r`attention has a single head;`,
            r`every weight matrix is $d\times d$;`,
            r`$\role{param}{W^Q}$ and $\role{param}{W^K}$ start at zero, so at initialization every position attends to every position with the same weight $1/n$, and the attention sublayer shrinks to averaging $\role{in}{x}\role{param}{W^V}$ over the whole sequence.`,
          ],
        },
        {
          kind: 'p',
          text: r`The first two only move constants around. The third is what makes Lemma 2 computable, and it throws away whatever data-dependent mixing attention might do at initialization. In real training $\role{param}{W^Q}$ and $\role{param}{W^K}$ are Xavier-initialized, not zero.`,
        },
        {
          kind: 'p',
          text: r`While we are here, one citation in the introduction needs fixing. Page 1 lists GPT-2 (Radford et al. 2019) among the pretrained models built on Post-LN. Section 2.3 of the GPT-2 paper says the opposite: LN was moved to the input of each sub-block, and an additional LN was added after the final self-attention block. That is Pre-LN. By 2019, then, the largest generative model around was already running on Pre-LN.`,
          evidence: 'paper',
          evidenceNote: 'p. 1 of this paper; GPT-2 paper, Section 2.3',
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'jacobian',
      title: 'The Jacobian of LayerNorm',
      blocks: [
        {
          kind: 'p',
          text: r`Does a gradient come out of an LN bigger or smaller than it went in? To answer that, first look at what LN does geometrically. Take $\gamma=1$ and $\beta=0$, which is where they start:`,
        },
        {
          kind: 'math',
          tex: r`\role{norm}{\mathrm{LN}}(\role{in}{x})=\frac{\role{in}{x}-\mu\mathbf 1}{\sigma},\qquad \mu=\frac1d\sum_k \role{in}{x_k},\qquad \sigma^2=\frac1d\sum_k (\role{in}{x_k}-\mu)^2`,
        },
        {
          kind: 'p',
          text: r`It does two things. Subtracting the mean projects $\role{in}{x}$ onto the hyperplane perpendicular to the all-ones vector; call the projected vector $y$. Dividing by $\sigma$ is the same as dividing by $\lVert y\rVert/\sqrt d$, so whatever comes out has length exactly $\sqrt d$. Every output of an LN lives on a sphere of radius $\sqrt d$. The input only chooses where on that sphere.`,
        },
        {
          kind: 'p',
          text: r`An immediate consequence: multiply the input by 10 and the output does not budge, $\role{norm}{\mathrm{LN}}(10\role{in}{x})=\role{norm}{\mathrm{LN}}(\role{in}{x})$.`,
        },
        {
          kind: 'callout',
          text: r`Before reading on, try this. Add the same small perturbation $\delta$ once to a short $\role{in}{x}$ and once to a long $\role{in}{x}$. Which of the two outputs moves more?`,
        },
        {
          kind: 'p',
          text: r`The short one. The longer $\role{in}{x}$ is, the smaller the angle through which the same $\delta$ can turn it, and direction is all the LN output cares about. The angle is roughly $\lVert\delta\rVert/\lVert y\rVert$; multiply by the radius of the sphere, $\sqrt d$, and you have the change in the output. That is the content of the paper’s Lemma 3:`,
        },
        {
          kind: 'math',
          tex: r`J_{\role{norm}{\mathrm{LN}}}(\role{in}{x})=\frac{\sqrt d}{\lVert y\rVert_2}\Big(I-\frac{y y^\top}{\lVert y\rVert_2^2}\Big)\Big(I-\frac1d\mathbf 1\mathbf 1^\top\Big),\qquad \lVert J_{\role{norm}{\mathrm{LN}}}(\role{in}{x})\rVert_2=O\Big(\frac{\sqrt d}{\lVert \role{in}{x}\rVert_2}\Big)`,
        },
        {
          kind: 'p',
          text: r`The two brackets are projections, with eigenvalues 0 and 1 only. One deletes the component along $y$: pushing along the radius leaves the output where it was. The other deletes the component along the all-ones direction: adding the same number to every coordinate is undone when the mean is subtracted. The size of the Jacobian is set by the scalar in front, $\sqrt d/\lVert y\rVert$, and nothing else. Backpropagation multiplies the gradient by $J_{\role{norm}{\mathrm{LN}}}^\top$, so the same scalar lands on the gradient.`,
        },
        {
          kind: 'p',
          text: r`So if you know how long the input of each LN is, you know by how much the gradient is rescaled on its way through. The next section works out those lengths, and that is where the two placements part company.`,
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'residual',
      title: 'How thick the residual stream gets',
      blocks: [
        {
          kind: 'p',
          text: r`First a small tool, the paper’s Lemma 1. Take a $d$-dimensional vector whose coordinates are independent $N(0,\sigma^2)$ and pass it through a ReLU: the expected squared length drops from $\sigma^2 d$ to $\tfrac12\sigma^2 d$. The reason fits in a sentence. Each coordinate is zeroed with probability one half and kept as it is otherwise, and the positive half of a symmetric distribution carries exactly half of its second moment.`,
        },
        {
          kind: 'p',
          text: r`Next, what one FFN sublayer does to length. Feed it an input of squared length $d$, with weights drawn from $N(0,1/d)$. After $\role{param}{W^1}$ every coordinate has variance 1; the ReLU keeps half of that; after $\role{param}{W^2}$ the expected squared length is $d/2$. The branch output and the trunk input are uncorrelated in expectation (the cross term contains a zero-mean random matrix), so when they are added their squared lengths simply add.`,
        },
        {
          kind: 'p',
          text: r`With these two steps, Lemma 2 is nothing more than bookkeeping.`,
        },
        { kind: 'h3', text: 'Post-LN' },
        {
          kind: 'p',
          text: r`Each layer’s input has just come out of an LN, so its squared length is exactly $d$. Under uniform attention, the attention sublayer adds a mean vector and the next LN brings the total back to $d$. The FFN sublayer adds $d/2$, giving $\mathbb E\lVert \role{in}{x^{\text{post},5}_{l}}\rVert^2=\tfrac32 d$, and the layer’s last LN pulls that back to $d$ again. Every layer is the same; nothing depends on $l$.`,
        },
        { kind: 'h3', text: 'Pre-LN' },
        {
          kind: 'p',
          text: r`The trunk only ever adds, and nobody pulls it back. Each layer adds two branches: attention contributes somewhere between 0 and $d$ (depending on how much length survives averaging the vectors of the sequence), and the FFN contributes $d/2$. Start from $\lVert \role{in}{x_0}\rVert^2=d$ and add up layer by layer:`,
        },
        {
          kind: 'math',
          tex: r`\Big(1+\frac l2\Big)d\ \le\ \mathbb E\lVert \role{in}{x^{\text{pre}}_{l}}\rVert^2\ \le\ \Big(1+\frac{3l}{2}\Big)d`,
        },
        {
          kind: 'p',
          text: r`At layer 6 that is between $4d$ and $10d$; at layer 24, between $13d$ and $37d$. The residual stream gets thicker linearly with depth.`,
        },
        {
          kind: 'p',
          text: r`We measured both directly, with the minimal implementation printed at the end of the section on depth ($d=512$, 6 layers, one head, Xavier initialization, $d_{ff}=2d$, 5 random seeds). For Post-LN, $\lVert \role{in}{x^{\text{post},5}_l}\rVert^2/d$ over the six layers comes out as {{post.norm2}}, and no layer’s standard deviation across seeds exceeds {{post.norm2.maxstd}}.`,
          evidence: 'measured',
          evidenceNote: 'minimal implementation, d = 512, 6 layers, 5 seeds',
        },
        {
          kind: 'p',
          text: r`The textbook value 1.5 assumes $d\times d$ weights with variance $1/d$. Redo the same bookkeeping with our $d_{ff}=2d$ and Xavier initialization and it predicts $1+4/9\approx1.44$; the measured average, {{post.norm2.mean}}, agrees.`,
        },
        {
          kind: 'p',
          text: r`For Pre-LN, $\lVert \role{in}{x_l}\rVert^2/d$ reads {{pre.norm2}}. That is roughly {{pre.norm2.step}} more per layer: inside Lemma 2’s band, near its lower edge.`,
          evidence: 'measured',
          evidenceNote: 'same setting',
        },
        { kind: 'figure', id: 'fig2' },
        {
          kind: 'p',
          text: r`Now join this section to the previous one. In Pre-LN, every gradient on its way from the loss to any parameter first has to pass the final LN, and the input of that LN is the thickest stretch of residual stream in the whole network. By Lemma 3 the gradient gets multiplied there by $\sqrt d/\lVert \role{in}{x_L}\rVert\approx 1/\sqrt{1+cL}$. At 6 layers we measure $\lVert \role{in}{x_6}\rVert^2/d=$ {{pre.norm2.last}}, so the multiplier is {{pre.gain}}. The more layers, the smaller it gets, and it is applied to the gradient of every parameter at once.`,
        },
        {
          kind: 'p',
          text: r`In Post-LN the last LN always sees an input of about $\tfrac32 d$, so its multiplier stays at about $\sqrt{2/3}\approx0.82$ (we measure {{post.gain}} in our setting), however many layers there are.`,
        },
        {
          kind: 'callout',
          text: r`That is the whole mechanism of the paper. What makes it elegant is that both lemmas are pure bookkeeping: no step depends on what attention actually does. Its limitation lives in the same place: as we will see, the books are kept only for the last layer.`,
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'theorem',
      title: 'The two upper bounds of Theorem 1',
      blocks: [
        {
          kind: 'p',
          text: r`With Lemmas 2 and 3 in hand, the main theorem is the chain rule with both substituted in. Theorem 1 is about a single matrix, the second FFN matrix of the last layer, $\role{param}{W^{2,L}}$:`,
        },
        {
          kind: 'math',
          tex: r`\text{Post-LN:}\ \Big\lVert \frac{\partial\role{loss}{\tilde{\mathcal L}}}{\partial \role{param}{W^{2,L}}}\Big\rVert_F\le O\big(d\sqrt{\ln d}\big)\qquad\qquad \text{Pre-LN:}\ \Big\lVert \frac{\partial\role{loss}{\tilde{\mathcal L}}}{\partial \role{param}{W^{2,L}}}\Big\rVert_F\le O\Big(d\sqrt{\frac{\ln d}{L}}\Big)`,
        },
        {
          kind: 'p',
          text: r`Both hold with probability at least $0.99-\delta-\epsilon/(0.9+\epsilon)$, on condition that the lengths of the hidden states satisfy a concentration property.`,
        },
        { kind: 'h3', text: 'The skeleton of the proof' },
        {
          kind: 'p',
          text: r`Pick one entry of $\role{param}{W^{2,L}}$, row $p$, column $q$. It can reach the loss along one route only: it changes coordinate $q$ of the FFN output, that coordinate passes through an LN, and the LN feeds the loss. So the gradient of this one entry is a product of three factors (Appendix E, eqs. 34 to 38). Which factor is which can be read off from the bound they produce:`,
          evidence: 'inferred',
          evidenceNote: 'factors identified from the bound computed below',
        },
        {
          kind: 'list',
          ordered: true,
          items: [
            r`how strongly the loss reacts to the LN’s output, which the bound treats as a constant;`,
            r`the scale of the LN it passes, $\sqrt d$ over the length of that LN’s input. Squared, it is $d/(\tfrac32 d)$ for Post-LN, whose input is $\role{in}{x^{\text{post},5}_L}$, and $1/(1+L/2)$ for Pre-LN, whose final LN sees $\role{in}{x_L}$;`,
            r`hidden unit $p$, the ReLU value that the entry multiplies, bounded by $\sqrt{2\ln 100d}$.`,
          ],
        },
        {
          kind: 'p',
          text: r`Multiply the three, square, sum over all $d^2$ entries and take the square root. For Post-LN that gives`,
        },
        {
          kind: 'math',
          tex: r`\sqrt{d^2\cdot \frac{d}{(3/2)d}\cdot 2\ln 100d}=O\big(d\sqrt{\ln d}\big)`,
        },
        {
          kind: 'p',
          text: r`For Pre-LN the second factor carries an extra $1/(1+L/2)$, and that is where the extra $1/\sqrt L$ comes from.`,
        },
        { kind: 'h3', text: 'How loose is it at d = 512?' },
        {
          kind: 'p',
          text: r`Put in $d=512$. The bound on the third factor is $\sqrt{2\ln(51200)}\approx4.66$, while a typical ReLU unit has size $\sqrt{\mathbb E[\mathrm{ReLU}(z)^2]}=\sqrt{0.5}\approx0.71$. The proof charges every entry for the worst hidden unit in the layer, and this one term alone is off by more than a factor of 6.`,
        },
        {
          kind: 'p',
          text: r`Now the probability. The paper measures the concentration to be $(0.1,0.125)$-bounded (p. 6). Plugging that in gives $0.99-0.125-0.1/1.0=0.765$. In the authors’ own experimental setting, then, Theorem 1 is an upper bound with unstated constants that holds with probability of roughly 77%.`,
        },
        {
          kind: 'p',
          text: r`“$(\epsilon,\delta)$-bounded” itself is simple: with probability at least $1-\delta$, the random variable lies within $\pm\epsilon$ times its expectation. It has exactly one job in the proof, which is to replace the *expected* length from Lemma 2 by the length actually realized this time, so that Lemma 3 can be applied to it.`,
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'bounds-gap',
      title: 'Comparing an upper bound with an upper bound',
      blocks: [
        {
          kind: 'p',
          text: r`From Theorem 1 the paper concludes that near the output the gradient is large in Post-LN and much smaller in Pre-LN (p. 6). Logically there is a hole in this step. Both results are upper bounds, and a larger upper bound says nothing about a larger actual value. To claim Post-LN’s gradient is large you need a lower bound, and the paper does not give one. What Theorem 1 supports rigorously is only half of the claim: Pre-LN’s last-layer gradient cannot exceed a quantity that shrinks as $L$ grows.`,
          evidence: 'paper',
          evidenceNote: 'Theorem 1 contains only ≤ signs',
        },
        {
          kind: 'p',
          text: r`That puts more weight than usual on the experiments. The paper’s Fig. 3(c)(d) measure models from 6 to 14 layers: Post-LN’s last-layer $\role{param}{W^2}$ gradient stays around 1.6 throughout, Pre-LN’s falls from 0.31 to 0.125. We reproduce both trends in the minimal implementation (Fig. 3, right), and with both statistics, so they look trustworthy.`,
        },
        {
          kind: 'paperFigure',
          text: r`The paper’s Figure 3 (p. 7). Panels (a)(b): gradients of the two FFN matrices in each layer of the 6-6 model, orange for Post-LN, blue for Pre-LN, green for Post-LN after warm-up. Panels (c)(d): the last layer’s $\role{param}{W^2}$ as the number of layers grows. The vertical axes of (c) and (d) differ by about a factor of 4, and neither panel has error bars, although the text says 10 seeds were run.`,
        },
        {
          kind: 'p',
          text: r`Two details, however, do not fit the theorem.`,
        },
        { kind: 'h3', text: 'Mismatch 1: how fast it falls' },
        {
          kind: 'p',
          text: r`The first is the rate of decline. Going from 6 to 14 layers, $1/\sqrt L$ says the gradient should shrink to $\sqrt{6/14}\approx$ {{depth.sqrtL.ratio}} of its starting value. In the paper’s Fig. 3(c) it shrinks to 0.40; we measure {{depth.pre.ratio}}. The real decline is much steeper than the theorem’s. An upper bound is not contradicted by that, but it does say something other than the last LN is changing with depth.`,
        },
        {
          kind: 'p',
          text: r`One candidate is the share of the word embedding itself in the vector the output layer sees. Pre-LN’s trunk carries $\role{in}{x_0}$ unchanged all the way to the output; the more layers there are, the smaller the fraction of it that is left once the final LN has normalized everything. ({{#fig6}}, after Figure 3, tests this.)`,
          evidence: 'guess',
        },
        { kind: 'h3', text: 'Mismatch 2: which is larger at a fixed depth' },
        {
          kind: 'p',
          text: r`The second is the ordering at a fixed depth. At 6 layers we find Pre-LN’s last-layer gradient *larger* than Post-LN’s (per-batch norms {{depth.pre.L6}} against {{depth.post.L6}}); the order only flips from {{depth.crossover}} layers on. The paper’s Fig. 3 at 6 layers has Post-LN at 1.6 and Pre-LN at 0.31.`,
          evidence: 'measured',
          evidenceNote: 'Fig. 3(c) below',
        },
        {
          kind: 'p',
          text: r`The settings are not the same (ours: one head, encoder only, $d_{ff}=2d$, the target is the map $t\mapsto t+1$), so this does not refute the paper. It is a reminder that the constants an $O(\cdot)$ hides are big enough to decide the ordering in a model as shallow as 6 layers. The paper’s conclusion only becomes solid in deeper models.`,
        },
        { kind: 'figure', id: 'fig3' },
        {
          kind: 'test',
          title: 'The tied embedding and the fall of Pre-LN’s gradient',
          blocks: [
            {
              kind: 'p',
              text: r`This is the first of the page’s own tests; their figures have letters where the article’s have numbers. Several steps of this reading are marked as inferred or guessed: the paper does not measure them. The page’s engine can, at toy scale, in seconds. Each test sits next to the claim it tests, restates it, shows what the engine finds, and gives a verdict computed from the numbers by a rule fixed before the run (confirmed, refuted, or holds only under stated conditions). A verdict speaks about the toy setting; it does not settle the question for a 6-layer translation model.`,
            },
            {
              kind: 'p',
              text: r`The guess of the first mismatch: Pre-LN’s last-layer gradient falls faster than $1/\sqrt L$ because the output layer sees the word embedding itself, carried unchanged along the trunk, and its share shrinks as layers are added. Two ingredients make that share large at initialization: the output matrix is the embedding (tied), and the input is scaled by $\sqrt d$, so $\lVert \role{in}{x_0}\rVert^2\approx d$ sits in the trunk next to each layer’s contribution.`,
              evidence: 'guess',
            },
            {
              kind: 'p',
              text: r`{{#fig6}} repeats Figure 3c’s sweep ({{exp.tied.depths}} layers) for the four models with and without each ingredient, and records how much probability the initial model gives to the current token. {{exp.tied.verdict}}`,
              evidence: 'measured',
              evidenceNote: 'the engine’s tied-output experiment (docs/experiments.md)',
            },
            { kind: 'figure', id: 'fig6' },
          ],
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'depth',
      title: 'How the gradient is spread across depth',
      blocks: [
        {
          kind: 'p',
          text: r`Theorem 1 covers the last layer and nothing else. At the end of Section 3.3 the paper reports some preliminary analysis of the other layers. The gist: Post-LN’s gradient is large near the output and likely decays as $l$ gets smaller, while Pre-LN’s is likely about the same in every layer. The wording slides from Theorem 1’s “we prove” to “preliminary” and “likely”; the authors are visibly less sure of this part.`,
          evidence: 'paper',
          evidenceNote: 'p. 6',
        },
        {
          kind: 'p',
          text: r`Appendix F argues as follows. To get from the output back to layer $l$, the gradient has to cross the $L-l$ layers above it, each holding two LNs. The LN after the FFN has an input of squared length $\tfrac32 d$, so by Lemma 3 every crossing multiplies the gradient by $\sqrt{2/3}$, and the result is an exponential decay factor $(2/3)^{(L-l)/2}$.`,
        },
        {
          kind: 'p',
          text: r`A factor is missing from that account. On the way down the gradient crosses not only LNs but also the Jacobian of the residual addition $\role{in}{x}+\role{op}{F}(\role{in}{x})$, which is $I+\partial \role{op}{F}/\partial \role{in}{x}$. In the forward pass the FFN branch raised the squared length from $d$ to $\tfrac32 d$, by Lemma 1’s bookkeeping: one random matrix, then a ReLU that keeps half. In the backward pass the gradient goes through the same branch, multiplied by the transpose of an identically distributed random matrix and by the same half-zero ReLU mask, and its squared length also grows by a factor $\tfrac32$.`,
        },
        {
          kind: 'p',
          text: r`The extra share gained going forward is exactly what the LN divides away. The extra share gained going backward exactly restores what the LN divided away. Over one layer:`,
        },
        {
          kind: 'math',
          tex: r`\underbrace{\tfrac32}_{\text{residual branch}}\times\underbrace{\tfrac23}_{\role{norm}{\mathrm{LN}}}=1`,
        },
        {
          kind: 'p',
          text: r`No decay. The paper’s own eq. (62) does contain this factor; only when it comes to estimating does it keep the LN term alone. So in the paper’s own idealized setting, the Post-LN gradient at initialization should be flat across depth.`,
        },
        {
          kind: 'p',
          text: r`Flat is also what we measure. The $\role{param}{W^2}$ gradients of the 6 layers are {{post.w2.paper}} in the paper’s statistic, and the per-batch norms lie between {{post.w2.batch.min}} and {{post.w2.batch.max}} (Fig. 3, left).`,
          evidence: 'measured',
          evidenceNote: 'Fig. 3(a)',
        },
        {
          kind: 'p',
          text: r`That does not match the paper’s Fig. 3(a)(b), where Post-LN climbs from 0.13 at layer 1 to 1.65 at layer 6.`,
        },
        {
          kind: 'p',
          text: r`Where the difference comes from cannot be decided from the paper. The model there has 6 encoder layers plus 6 decoder layers, and the figure does not say whether its layers 1 to 6 belong to the encoder or the decoder. Encoder gradients must first travel back through the cross-attention of the entire decoder. Real data, dropout 0.1 and label smoothing also separate it from our toy setting.`,
          evidence: 'guess',
        },
        {
          kind: 'p',
          text: r`One thing is certain: Appendix F’s exponential-decay argument does not hold as written, and the rise in Fig. 3(a)(b) needs some other explanation. ({{#fig11}} below measures both factors separately at {{exp.df.layers}} layers.)`,
        },
        {
          kind: 'test',
          title: 'Appendix F’s decay and the residual Jacobian',
          blocks: [
            {
              kind: 'p',
              text: r`The inference: Appendix F’s $(2/3)^{(L-l)/2}$ decay counts the LN after each add but not the residual Jacobian $I+\partial \role{op}{F}/\partial \role{in}{x}$; going back through the FFN branch grows the gradient by the $\sqrt{3/2}$ the LN takes away, so at initialization Post-LN’s gradient should be flat in depth.`,
              evidence: 'inferred',
            },
            {
              kind: 'p',
              text: r`{{#fig11}} repeats Figure 3a at {{exp.df.layers}} layers, where Appendix F predicts that layer 1 gets {{exp.df.rF}} of the last layer’s gradient, and measures in one backward pass per batch the two factors the gradient picks up at every layer: the norm’s (gradient at the residual sum over gradient at the norm’s output) and the residual Jacobian’s (gradient at the sublayer’s input over gradient at the sum). {{exp.df.verdict}}`,
              evidence: 'measured',
              evidenceNote: 'the engine’s depth-factors experiment (docs/experiments.md)',
            },
            { kind: 'figure', id: 'fig11' },
          ],
        },
        { kind: 'h3', text: 'And Pre-LN?' },
        {
          kind: 'p',
          text: r`For Pre-LN we measure a fall by a factor of {{pre.w2.batch.ratio}} from the bottom layer to the top ({{pre.w2.batch.first}} down to {{pre.w2.batch.last}}); the paper’s Fig. 3(b) goes from 0.57 to 0.30, a factor of about 1.9. The direction agrees. But where the text says the layers are almost equal, its figure shows them nearly a factor of two apart.`,
          evidence: 'measured',
          evidenceNote: 'Fig. 3(a)',
        },
        {
          kind: 'p',
          text: r`The residual Jacobian is again the reason. As the Pre-LN gradient moves down, every layer adds one branch contribution to it, and the LN at the entrance of each branch has a larger gain lower down, where the stream is still thin. So the further down, the more has piled up.`,
        },
        { kind: 'h3', text: 'The reference code' },
        {
          kind: 'p',
          text: r`The script below is where every measured number above comes from; the engine behind this page computes the same quantities in the same setting. It follows Table 1 of the paper and the initialization of its Section 3.3, and it produces all three panels of Fig. 3.`,
        },
        {
          kind: 'code',
          lang: 'python',
          caption: 'Reference specification of the measurement (unofficial), in PyTorch',
          code: `# Unofficial implementation of Section 3 and Table 1 of the paper. It looks only at the moment of initialization: how large the W2 gradients of each layer are in Post-LN and in Pre-LN.
import sys, json, torch, torch.nn as nn, torch.nn.functional as F
d, n, V, B = 512, 32, 1000, 8          # width, sequence length, vocabulary, sentences per batch

class Layer(nn.Module):
    def __init__(s, pre):
        super().__init__()
        s.pre = pre
        s.Wq, s.Wk, s.Wv = (nn.Linear(d, d) for _ in range(3))
        s.W1, s.W2 = nn.Linear(d, 2 * d), nn.Linear(2 * d, d)   # IWSLT configuration: 512 -> 1024 -> 512
        s.ln1, s.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        for m in (s.Wq, s.Wk, s.Wv, s.W1, s.W2):
            nn.init.xavier_normal_(m.weight); nn.init.zeros_(m.bias)   # paper, Section 3.3: Xavier, biases at 0

    def attn(s, x):                                     # x: (B, n, d)
        a = s.Wq(x) @ s.Wk(x).transpose(1, 2) / d ** .5  # (B, n, n); single head, as in the theorem's setting
        return a.softmax(-1) @ s.Wv(x)

    def forward(s, x):
        ffn = lambda h: s.W2(F.relu(s.W1(h)))
        if s.pre:                                       # Table 1, right column: LN inside the residual branch, only additions on the trunk
            x = x + s.attn(s.ln1(x))
            return x + ffn(s.ln2(x))
        x = s.ln1(x + s.attn(x))                        # Table 1, left column: an LN after every addition
        s.x5 = x + ffn(x)                               # x^{post,5} from Lemma 2, kept to look at its norm
        return s.ln2(s.x5)

class Net(nn.Module):
    def __init__(s, L, pre):
        super().__init__()
        s.E = nn.Parameter(torch.randn(V, d) / d ** .5)  # as fairseq does: embeddings initialized from N(0, 1/d)
        s.layers = nn.ModuleList(Layer(pre) for _ in range(L))
        s.final = nn.LayerNorm(d) if pre else nn.Identity()   # the extra final LN of Pre-LN; all the gradient scaling hinges on it

    def forward(s, tok, tgt):
        x, s.norms = s.E[tok] * d ** .5, []             # scale the input by sqrt(d), matching the paper's assumption: |x0|^2 is about d
        for layer in s.layers:
            x = layer(x)
            h = x if layer.pre else layer.x5            # Post-LN's x_l is pinned to d by the LN; only x5 carries information
            s.norms.append((h.pow(2).sum(-1).mean() / d).item())    # Lemma 2 predicts: Post about 1.5, Pre growing linearly with depth
        logits = s.final(x) @ s.E.t()                   # output layer shared with the word embedding; after the LN |h|^2 = d, logits have std about 1
        return F.cross_entropy(logits.reshape(-1, V), tgt.reshape(-1))

def grads(L, pre, batches=20):
    net = Net(L, pre)
    acc = [torch.zeros_like(l.W2.weight) for l in net.layers]; each = [0.] * len(net.layers)
    for _ in range(batches):                            # as in Section 3.4 of the paper: average the gradients over batches first, then take the F-norm
        net.zero_grad()
        tok = torch.randint(V, (B, n)); tgt = (tok + 1) % V   # the target has structure, so the averaged gradient is not pure noise
        net(tok, tgt).backward()
        for k, l in enumerate(net.layers):
            acc[k] += l.W2.weight.grad / batches
            each[k] += l.W2.weight.grad.norm().item() / batches   # this is what Theorem 1 bounds: the norm of a single batch's gradient
    return [a.norm().item() for a in acc], net.norms, each

if __name__ == '__main__':                              # 5 seeds per configuration; report mean and standard deviation
    ms = lambda xs: [round(float(torch.tensor(c).mean()), 3) for c in zip(*xs)] + [round(float(torch.tensor(c).std()), 3) for c in zip(*xs)]
    out = {}
    for pre in (False, True):
        k = 'pre' if pre else 'post'
        runs = [(torch.manual_seed(s), grads(6, pre))[1] for s in range(5)]
        out[k] = {'W2_per_layer': ms([r[0] for r in runs]), 'W2_per_batch': ms([r[2] for r in runs]), 'norm2/d': ms([r[1] for r in runs])}
        lastW2 = {L: [(torch.manual_seed(s), grads(L, pre, 10))[1] for s in range(5)] for L in (6, 8, 10, 12, 14)}
        out[k + '_lastW2_vs_L'] = {L: ms([[r[0][-1], r[2][-1]] for r in rs]) for L, rs in lastW2.items()}
    json.dump(out, sys.stdout, indent=1)`,
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'adam',
      title: 'Between gradient scale and Adam there is one more step',
      blocks: [
        {
          kind: 'p',
          text: r`Up to this point the whole argument has been a comparison of gradient sizes. Yet every experiment uses Adam, and Adam’s update pays almost no attention to the size of the gradient.`,
        },
        {
          kind: 'p',
          text: r`Work out Adam’s first step. $m_1=(1-\beta_1)g$ and $v_1=(1-\beta_2)g^2$; after bias correction $\hat m_1=g$ and $\hat v_1=g^2$. So`,
        },
        {
          kind: 'math',
          tex: r`\Delta\role{param}{\theta}_1=-\mathrm{lr}\cdot\frac{\hat m_1}{\sqrt{\hat v_1}+\epsilon}=-\mathrm{lr}\cdot\frac{g}{|g|+\epsilon}\approx-\mathrm{lr}\cdot\mathrm{sign}(g)`,
        },
        {
          kind: 'p',
          text: r`Every coordinate moves by exactly $\mathrm{lr}$. Whether the gradient is 1.6 or 0.016, the first step covers the same distance ($\epsilon=10^{-9}$ in the paper, utterly negligible). Over the next steps $\hat m/\sqrt{\hat v}$ stays of order 1 as well, unless the sign of the gradient keeps flipping. So the factor $\sqrt L$ that separates the two bounds of Theorem 1 does not turn directly into a difference in step size under Adam. “Large gradient times large learning rate, hence instability” is, strictly speaking, a statement about SGD. The main text of the paper never deals with this layer. ({{#fig7}} below measures it.)`,
          evidence: 'inferred',
          evidenceNote: 'Adam’s update rule and the optimizer settings on p. 4',
        },
        {
          kind: 'test',
          title: 'Adam’s first steps and the gradient’s scale',
          blocks: [
            {
              kind: 'p',
              text: r`The inference: Adam’s first update moves every coordinate by about $\mathrm{lr}$ whatever the gradient’s size, and $\hat m/\sqrt{\hat v}$ stays of order 1 afterwards, so the $\sqrt L$ gap between Post-LN’s and Pre-LN’s gradients is not a gap in step size.`,
              evidence: 'inferred',
            },
            {
              kind: 'p',
              text: r`{{#fig7}} runs the toy model of the next section for its first steps with both placements and records, at every step, the gradient norm and the update’s size per coordinate divided by the learning rate. At step 1 the gradient norms are {{exp.afs.g1.post}} (Post-LN) and {{exp.afs.g1.pre}} (Pre-LN), and the update sizes {{exp.afs.rms1.post}} and {{exp.afs.rms1.pre}} times lr. {{exp.afs.verdict}}`,
              evidence: 'measured',
              evidenceNote: 'the engine’s adam-first-step experiment (docs/experiments.md)',
            },
            { kind: 'figure', id: 'fig7' },
          ],
        },
        {
          kind: 'p',
          text: r`Then how does Pre-LN’s advantage make it through Adam? Look in a different space. If Adam moves every parameter by about $\mathrm{lr}$, what decides stability is how much the network’s *output* changes after that move. In Pre-LN, a change to the parameters of any layer has to pass through the final LN before it can touch the output, and Lemma 3 says that this LN multiplies forward perturbations and backward gradients by the same $\sqrt d/\lVert \role{in}{x_L}\rVert$. While it shrinks the gradients by $\sqrt L$, it shrinks the effect of each update on the output by the same factor. The paper’s mechanism survives under Adam; it just has to be told in function space rather than in gradient space. ({{#fig10}} below tests this.)`,
          evidence: 'inferred',
        },
        {
          kind: 'test',
          title: 'An update’s effect on the output',
          blocks: [
            {
              kind: 'p',
              text: r`The inference: under Adam the mechanism lives in function space; Pre-LN’s final LN shrinks the effect of each update on the output as it shrinks the gradient.`,
              evidence: 'inferred',
            },
            {
              kind: 'p',
              text: r`{{#fig10}} takes Adam’s first step as a sign step $\theta-\eta\,\mathrm{sign}(g)$ at initialization and measures, against depth, the $\eta$ with the lowest loss and how much one layer’s step moves the logits. {{exp.ss.verdict}}`,
              evidence: 'measured',
              evidenceNote: 'the engine’s step-size experiment (docs/experiments.md)',
            },
            { kind: 'figure', id: 'fig10' },
          ],
        },
        {
          kind: 'p',
          text: r`On the Post-LN side, this is exactly the quantity Liu et al. 2020 (“Understanding the Difficulty of Training Transformers”) measured. For parameter updates of the same size, the change in the output grows linearly with depth in Post-LN and only logarithmically in Pre-LN. They trace Post-LN’s trouble to an output that leans too heavily on the residual branches of the individual layers, so that small parameter perturbations are amplified layer after layer. That explanation fits with this paper’s conclusion, and it needs no detour through Adam. ({{#fig5}} below measures it in the toy model.)`,
        },
        {
          kind: 'test',
          title: 'Output sensitivity against depth',
          blocks: [
            {
              kind: 'p',
              text: r`The claim, after Liu et al. 2020: for updates of the same size, Post-LN’s output moves more and more with depth, about linearly, and Pre-LN’s only about logarithmically; that sensitivity, not the size of the gradient, is what an Adam update runs into.`,
              evidence: 'inferred',
            },
            {
              kind: 'p',
              text: r`{{#fig5}} measures it with the page’s engine: the toy model of the next section at initialization, with {{exp.os.depths}} layers, every weight moved by $\delta=$ {{exp.os.delta}}, and the mean squared change of the logits recorded. On log–log axes $O(L)$ is a slope of 1. For a random perturbation the slope is {{exp.os.post}} for Post-LN and {{exp.os.pre}} for Pre-LN; Admin’s weighted residual takes Post-LN down to {{exp.os.admin}}, DeepNorm to {{exp.os.deepnorm}}. Under Adam’s sign step, $\theta-\delta\,\mathrm{sign}(g)$, which is the move an Adam update actually makes, the slopes are {{exp.os.sign.post}} and {{exp.os.sign.pre}}. {{exp.os.verdict}}`,
              evidence: 'measured',
              evidenceNote: 'the engine’s output-sensitivity experiment (docs/experiments.md)',
            },
            { kind: 'figure', id: 'fig5' },
          ],
        },
        {
          kind: 'p',
          text: r`The paper’s own RAdam control deserves a second reading in this light. In Fig. 4(a)(b), RAdam trains Post-LN fine without warm-up (p. 8 says so in as many words: “although RAdam trains the Post-LN Transformer well without the warm-up stage”). So repairing the variance of Adam’s early second-moment estimate is, on its own, enough to rescue Post-LN. That is support for the RAdam explanation. The authors read the same results as the LN position mattering more than the optimizer, on the grounds that Pre-LN barely changes when switched to RAdam.`,
          evidence: 'inferred',
          evidenceNote: 'Fig. 2(a), Fig. 4(a)(b)',
        },
        {
          kind: 'p',
          text: r`Put the two readings side by side and a more likely picture emerges: failure needs two conditions at the same time. Early updates are large and erratic, because Adam’s second moment is not yet estimated well; and the output is sensitive to parameter perturbations, as in Post-LN. Take away either condition and training goes ahead.`,
          evidence: 'inferred',
          evidenceNote: 'Fig. 2(a), Fig. 4(a)(b)',
        },
        {
          kind: 'callout',
          text: r`Warm-up, RAdam and Pre-LN are three ways of removing one of the two conditions: warm-up keeps the early updates small, RAdam tames the noisy early second moment, Pre-LN makes the output less sensitive to each update. ({{#fig8}} in the next section tests this on the toy model.)`,
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'toy',
      title: 'The same effect at toy scale',
      blocks: [
        {
          kind: 'p',
          text: r`Shrink the same comparison until a CPU gets through it in a few minutes, and the effect is still there. The setup: a causal language model with 8 layers and $d=128$, trained on text generated by an artificial Markov chain. The vocabulary has 256 tokens, and each token has only 4 possible successors, so the best achievable loss is $\ln 4\approx$ {{toy.opt}}. The optimizer is Adam as in the paper, $\beta=(0.9,0.98)$; training runs for 500 steps, with 2 seeds per configuration.`,
        },
        { kind: 'figure', id: 'fig4' },
        {
          kind: 'p',
          text: r`At a peak of $10^{-3}$, Post-LN without warm-up stays stuck for all 500 steps (it ends at {{toy.post.w0.lo.final}}). Give it 300 steps of warm-up and it sits on the same plateau until roughly step {{toy.post.w300.lo.break}}, then suddenly drops, ending at {{toy.post.w300.lo.final}} at step 500. Pre-LN without warm-up is already down to {{toy.pre.w0.lo.at100}} at step 100 and ends at {{toy.pre.w0.lo.final}}.`,
          evidence: 'measured',
          evidenceNote: 'toy setting',
        },
        {
          kind: 'p',
          text: r`The source article goes on: at a peak of $3\times10^{-3}$, 300 warm-up steps are no longer enough for Post-LN, and both of its curves stay on the plateau, the same situation as the paper's run where 500 warm-up steps with $10^{-3}$ leave only 2.77 BLEU.`,
          evidence: 'measured',
          evidenceNote: 'the source article’s run, toy setting',
        },
        {
          kind: 'p',
          text: r`This engine reproduces only half of that. Without warm-up, Post-LN does stay on the plateau (final loss {{toy.post.w0.hi.final}}, plateau {{toy.plateau}}). With 300 warm-up steps it leaves the plateau around step {{toy.post.w300.hi.break}} and ends at {{toy.post.w300.hi.final}}. An independent PyTorch version of the toy does the same, and so do four more seeds and a 500-step warm-up, so we report the difference instead of tuning it away; the article does not give its chain, seeds or batch size. Pre-LN goes down as usual, with or without warm-up ({{toy.pre.w0.hi.final}} and {{toy.pre.w300.hi.final}}).`,
          evidence: 'measured',
          evidenceNote: 'toy setting',
        },
        {
          kind: 'p',
          text: r`The previous section’s reading, that warm-up, RAdam and Pre-LN each remove one of failure’s two conditions, can be put to this toy directly: {{#fig8}} below trains it with Post-LN and Pre-LN under each remedy alone.`,
          evidence: 'inferred',
        },
        {
          kind: 'test',
          title: 'What warm-up removes',
          blocks: [
            {
              kind: 'p',
              text: r`The inference: failure needs large, erratic early updates *and* an output sensitive to them; warm-up, RAdam and Pre-LN each remove one condition, so each alone should rescue Post-LN. And the paper’s SGD control, the article suspects, proves little, because SGD trains Transformers badly anyway.`,
              evidence: 'inferred',
            },
            {
              kind: 'p',
              text: r`{{#fig8}} trains this toy in its quick-look setting ({{exp.wl.steps}} steps, two seeds) with Post-LN and Pre-LN, Adam, RAdam and SGD with momentum, and warm-ups from none to 300 steps, and marks when each seed-mean curve leaves the plateau. {{exp.wl.verdict}} {{exp.sgd.verdict}}`,
              evidence: 'measured',
              evidenceNote: 'the engine’s warmup-length experiment (docs/experiments.md)',
            },
            { kind: 'figure', id: 'fig8' },
          ],
        },
        { kind: 'h3', text: 'Two things to remember' },
        {
          kind: 'p',
          text: r`Two observations matter more than the curves. **First, Post-LN does not fail by diverging.** There is no NaN, and the loss never blows up; the model simply parks on a plateau. The plateau, {{toy.plateau}}, lies a little below uniform guessing, $\ln 256=$ {{toy.lnV}}. That is about the loss of a model that has learned how often each token occurs and ignores context completely ({{#fig9}} below looks inside the model while it sits there). The paper’s BLEU of 8.45, rather than 0, also looks more like getting stuck than like a crash.`,
        },
        {
          kind: 'p',
          text: r`**Second, this small experiment supplies a toy version of the control that the paper lacks** (more on that under “Variables that move together”): Pre-LN with warm-up ends about where it ends without ({{toy.pre.w300.lo.final}} against {{toy.pre.w0.lo.final}}), just some {{toy.pre.delay}} steps later. At this scale warm-up buys Pre-LN nothing; it only costs time.`,
        },
        {
          kind: 'test',
          title: 'What the plateau is made of',
          blocks: [
            {
              kind: 'p',
              text: r`The observation: Post-LN without warm-up does not diverge; it parks at the loss of a model that knows only how often each token occurs. If so, its hidden states should stop depending on the token: every position would carry the same vector.`,
              evidence: 'measured',
            },
            {
              kind: 'p',
              text: r`{{#fig9}} records, during the Figure-4 runs, how much of each layer’s hidden state is specific to the token, $s = 1-\lVert\text{mean}_t\,h_t\rVert^2/\text{mean}_t\lVert h_t\rVert^2$, on a fixed batch. {{exp.ps.verdict}}`,
              evidence: 'measured',
              evidenceNote: 'the engine’s plateau-share experiment (docs/experiments.md)',
            },
            { kind: 'figure', id: 'fig9' },
          ],
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'experiments',
      title: 'Three experiments without warm-up',
      blocks: [
        {
          kind: 'p',
          text: r`Section 4 takes the conclusion to three tasks: IWSLT14 German–English translation, WMT translation, and BERT pretraining followed by fine-tuning. The settings differ more than the prose lets on, so here they are in a table first. The paper’s own table is on p. 7 (Section 4.1 and Appendix A); the one below collects only what this article states, and marks everything else as not stated.`,
        },
        {
          kind: 'table',
          caption:
            'Training settings, after p. 7 (Section 4.1) and Appendix A. Every experiment uses Adam with β = (0.9, 0.98). On IWSLT a batch holds 4096 tokens, and the paper’s model uses dropout 0.1 and label smoothing.',
          head: ['Task', 'Placement', 'Decay schedule', 'Peak learning rate', 'Warm-up', 'Runs'],
          rows: [
            ['IWSLT14 De–En', 'Post-LN', 'inverse square root decay', '5×10⁻⁴ or 10⁻³', '4000 steps (500 also tried)', '1 run per curve'],
            ['IWSLT14 De–En', 'Pre-LN', 'step decay: ×0.1 at epoch 8', 'not stated (the 35.5 BLEU footnote run: 7.5×10⁻⁴)', 'none', '1 run per curve'],
            ['WMT', 'Post-LN', 'not stated', 'not stated', 'not stated', '1 run per curve'],
            ['WMT', 'Pre-LN', 'not stated', 'not stated', 'none', '1 run per curve'],
            [
              'BERT',
              'Post-LN',
              'not stated',
              '10⁻⁴ (implied: Pre-LN’s is 3×; 3×10⁻⁴ diverged)',
              '10,000 steps',
              'pretraining: 1 run; fine-tuning: 6 seeds per checkpoint, 95% CI',
            ],
            ['BERT', 'Pre-LN', 'not stated', '3×10⁻⁴', 'none', 'pretraining: 1 run; fine-tuning: 6 seeds per checkpoint, 95% CI'],
          ],
        },
        {
          kind: 'p',
          text: r`The results come in three parts. On IWSLT both placements end at about BLEU 34 and a validation loss of about 4, and Pre-LN’s checkpoint after epoch 9 is about as good as Post-LN’s after epoch 15. WMT shows the same trend. On BERT, Pre-LN’s validation loss falls faster, and on the two downstream tasks, MRPC and RTE, it scores higher at every checkpoint.`,
          evidence: 'paper',
          evidenceNote: 'Figs. 4 and 5',
        },
        {
          kind: 'paperFigure',
          text: r`The paper’s Figure 5 (p. 8). (a) Validation loss during BERT pretraining. (b)(c) Downstream accuracy after fine-tuning each checkpoint, with error bars from 6 seeds. Note that in (a) the Pre-LN curve stops at about 800k steps, while Post-LN is drawn all the way to 1M.`,
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'reversed',
      title: 'Two numbers the wrong way round',
      blocks: [
        {
          kind: 'p',
          text: r`Page 8 says that Post-LN reaches a validation loss of 1.69 at 500k steps, that Pre-LN reaches a similar value at 700k steps, and that this amounts to a 40% speed-up. Taken literally, that makes Pre-LN the *slower* one.`,
        },
        {
          kind: 'p',
          text: r`Check it against Fig. 5(a). At 500k steps Pre-LN is at about 1.70 and Post-LN at about 1.75; Post-LN only gets down to 1.69 around 700k. The two model names have been swapped. It should read Pre-LN at 500k, Post-LN at 700k, and then`,
          evidence: 'paper',
          evidenceNote: 'p. 8 and Fig. 5(a)',
        },
        {
          kind: 'math',
          tex: r`\frac{700}{500}=1.4`,
        },
        {
          kind: 'p',
          text: r`which is where the 40% comes from. The authors go on to point out that warm-up lasts only 10k steps while the saving is 200k, so the speed-up is more than just skipping the warm-up. That argument is sound, provided the numbers are read the right way round.`,
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'confounders',
      title: 'Variables that move together',
      blocks: [
        { kind: 'h3', text: 'The schedule' },
        {
          kind: 'p',
          text: r`On IWSLT, Pre-LN uses a step decay that multiplies the rate by 0.1 at epoch 8; Post-LN uses inverse-square-root decay. Validation loss typically drops abruptly right after the learning rate is cut, and the checkpoint the text compares is Pre-LN’s epoch 9, the first one after the cut. How much of “Pre-LN converges faster” is due to where the LN sits, and how much to that cut, cannot be untangled from the experiments in the paper. The missing control is Post-LN with warm-up followed by the same step decay.`,
          evidence: 'inferred',
        },
        { kind: 'h3', text: 'The learning rate' },
        {
          kind: 'p',
          text: r`On BERT, Pre-LN’s peak learning rate is 3 times Post-LN’s. The authors say they tried Post-LN at $3\times10^{-4}$ too, and it diverged. That is precisely the point the paper wants to make, that Pre-LN tolerates a larger rate, so this unfairness is deliberate and acceptable. What they do not say is how long a warm-up Post-LN had when it was tried at $3\times10^{-4}$.`,
        },
        { kind: 'h3', text: 'The control that matters most' },
        {
          kind: 'p',
          text: r`Nowhere in the paper is Pre-LN trained *with* warm-up. The headline claim is that Pre-LN can safely do without warm-up. Backing that up requires showing that Pre-LN loses nothing when warm-up is dropped, which means comparing Pre-LN with and without it. Without that pair, a reader learns that Pre-LN trains without warm-up, but not whether warm-up would still help it.`,
          evidence: 'paper',
          evidenceNote: 'no such configuration in the experimental setup on p. 7',
        },
        {
          kind: 'p',
          text: r`In the toy experiment of the previous section, warm-up only made Pre-LN arrive about {{toy.pre.delay}} steps later, at the same end point. Large-model practice later gave another, indirect answer; see “What Pre-LN costs” below.`,
        },
        { kind: 'h3', text: 'Seeds' },
        {
          kind: 'p',
          text: r`Every translation and pretraining curve is a single run. The fine-tuning is done well: 6 seeds per checkpoint with 95% confidence intervals (Appendix A.3), which deserves credit. Seed-to-seed variation of BLEU on IWSLT is usually a few tenths of a point, so the conclusion that the two are on par stands; which one is slightly ahead cannot be read off.`,
        },
        { kind: 'h3', text: 'A footnote' },
        {
          kind: 'p',
          text: r`A footnote in Appendix A adds a detail. Pre-LN’s 35.5 BLEU on IWSLT comes from a different configuration: peak $7.5\times10^{-4}$, decay at step 8000, and dropout raised from 0.1 to 0.3. That number was not obtained under the same setting as the comparison in the main text’s Fig. 4.`,
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'timeline',
      title: 'A timeline from first version to final (inferred)',
      blocks: [
        {
          kind: 'callout',
          text: r`This section is a reconstruction, not a record. We have no drafts of the paper. The steps below only string together threads already laid out in the sections above, in the order in which the work plausibly progressed; each step names what it rests on.`,
        },
        {
          kind: 'p',
          text: r`**1. The puzzle.** On IWSLT14, warm-up decides between BLEU 8.45 and about 34, and plain SGD needs it too, so Adam alone cannot explain it.`,
          evidence: 'inferred',
          evidenceNote: 'p. 4, Fig. 2; pp. 4–5',
        },
        {
          kind: 'p',
          text: r`**2. The bet on step 0.** Warm-up only matters early, so look at the gradient at initialization, with the mean-field tools the group already knew from Lu et al. 2019, and with Pre-LN already available in Tensor2Tensor and fairseq as the candidate fix.`,
          evidence: 'inferred',
          evidenceNote: 'introduction and related work, p. 2',
        },
        {
          kind: 'p',
          text: r`**3. The bookkeeping.** Under three simplifications, Lemmas 1 to 3 give the residual-stream lengths and the LN Jacobian, and Theorem 1 turns them into two upper bounds, for the last layer only.`,
          evidence: 'inferred',
          evidenceNote: 'p. 5, Appendix E',
        },
        {
          kind: 'p',
          text: r`**4. The hedged extension.** The other layers get a “preliminary” analysis in Appendix F, stated with “likely” rather than proved.`,
          evidence: 'inferred',
          evidenceNote: 'p. 6, Appendix F',
        },
        {
          kind: 'p',
          text: r`**5. The checks.** Gradients measured at initialization for 6 to 14 layers (Fig. 3), and the RAdam control (Fig. 4(a)(b)).`,
          evidence: 'inferred',
          evidenceNote: 'pp. 7–8',
        },
        {
          kind: 'p',
          text: r`**6. The payoff.** Warm-up is dropped on IWSLT, WMT and BERT, ending in the claimed 40% speed-up for BERT, with the two model names swapped in the sentence that reports it.`,
          evidence: 'inferred',
          evidenceNote: 'Section 4, p. 8, Fig. 5(a), Appendix A',
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'cost',
      title: 'What Pre-LN costs, and where things went next',
      blocks: [
        {
          kind: 'p',
          text: r`Pre-LN is easy to train, but it is not free. A residual stream that thickens linearly with depth means that what layer $l$ adds to the trunk makes up only about a $1/\sqrt l$ share of it. In a very deep model each of the later layers changes the trunk only a little, and the network as a whole behaves more like a wider, shallower one.`,
        },
        {
          kind: 'p',
          text: r`Su Jianlin used exactly this angle in “Why Pre Norm performs worse than Post Norm” (为什么Pre Norm的效果不如Post Norm, Scientific Spaces, 2022) to explain something people keep observing: once Post-LN can be trained at all, it often ends up better than Pre-LN. Liu et al. 2020 reach the same conclusion in their experiments, and their Admin initialization is an attempt to give Post-LN stable training while keeping its final quality.`,
        },
        {
          kind: 'p',
          text: r`DeepNet (Wang et al. 2022, “DeepNet: Scaling Transformers to 1,000 Layers”) went further. It returns to Post-LN, multiplies the trunk by a constant larger than 1 at every residual addition, and shrinks the initialization of the branches; with this DeepNorm it trains 1000 layers. Seen from this paper, DeepNorm artificially increases the trunk’s share at the entrance of each LN and thereby holds down how much each layer’s update moves the output. That is the same direction as what Pre-LN’s final LN does.`,
        },
        {
          kind: 'p',
          text: r`The other thread is how large language models are trained in practice. GPT-2, GPT-3 and LLaMA all use Pre-LN (LLaMA with RMSNorm in place of LN), and none of them drops warm-up: GPT-3 warms up linearly over its first 375 million tokens, LLaMA over 2000 steps.`,
        },
        {
          kind: 'p',
          text: r`The reason is not hard to see. In a run of hundreds of thousands of steps, two thousand steps of warm-up cost next to nothing, and they guard at once against an inaccurate early second moment, very large batches and early loss spikes. This paper turned warm-up from a necessity into insurance, and the people training large models keep paying the premium. That also answers the missing control indirectly: at scale, Pre-LN with warm-up is at least no worse than Pre-LN without.`,
          evidence: 'inferred',
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'lessons',
      title: 'A normalization layer is a scale knob',
      blocks: [
        {
          kind: 'p',
          text: r`The thing most worth taking away from this paper is not Pre-LN itself but the view behind Lemma 3. A normalization layer rescales both the gradients and the perturbations that pass through it, by one over the length of its input.`,
        },
        {
          kind: 'p',
          text: r`So to judge whether a network will be easy to train, start by measuring the length at the entrance of every normalization layer. Wherever lengths keep growing, and wherever they get pulled back again and again, that is where the scale of gradients, and of updates in function space, is being rewritten. The view works just as well for BatchNorm, RMSNorm and QK-Norm.`,
        },
        {
          kind: 'p',
          text: r`The second lesson is about method. The paper’s theory proves only upper bounds, the extension in its appendix drops a factor, and the statistic in Fig. 3 does not quite correspond to the theorem. Every one of these problems shows up within a minute with a sixty-line script. When you read a paper about initialization or training stability, writing its setting down as a minimal implementation and printing the quantity it talks about will often show you where it really holds, faster than rereading the derivation.`,
        },
        {
          kind: 'p',
          text: r`Three problems are left that are worth working on:`,
        },
        {
          kind: 'list',
          ordered: true,
          items: [
            r`A lower bound to go with Theorem 1, so that “Post-LN’s gradient is large” becomes an actual result instead of a comparison between upper bounds.`,
            r`The whole argument redone under Adam’s update rule: analyse directly how much one update changes the output, rather than how large the gradient is.`,
            r`A placement that gets Post-LN’s final quality and Pre-LN’s stability at once. DeepNorm is one answer, but its constants have to be set according to depth, which is still some way from a switch you can just flip.`,
          ],
        },
      ],
    },
  ],

  // ───────────────────────────────────────────────────────────────────────────────────────────
  figures: {
    fig1: {
      title: 'Post-LN and Pre-LN, one layer each',
      caption: r`Top row Post-LN, bottom row Pre-LN; each shows a single layer, and $N\times$ means it is repeated $L$ times. Use the arrows below to walk the gradient back from the loss to the last layer’s $\role{param}{W^2}$, one factor at a time. Click Pre-LN’s purple Final LN to fold its inside away or open it up.`,
      captionStatic: r`Top row Post-LN, bottom row Pre-LN; each shows a single layer, and $N\times$ means it is repeated $L$ times. The list under the diagram walks the gradient back from the loss to the last layer’s $\role{param}{W^2}$, one factor at a time; with JavaScript the diagram steps through it with you.`,
      stepPrev: 'Previous',
      stepNext: 'Next',
      stepReset: 'Start over',
      stepLabel: 'Step {i} of {n}',
      postRow: 'Post-LN',
      preRow: 'Pre-LN',
      repeat: 'N×',
      finalLn: 'Final LN',
      expand: 'Show what is inside',
      collapse: 'Fold away',
      f_loss: r`Loss: at the logits the gradient starts as $\mathrm{softmax}(z)-\mathrm{onehot}(y)$, no entry larger than 1.`,
      f_logits: r`Output layer: the logits are $z=hE^\top$, with the output matrix shared with the word embedding, so the gradient is multiplied by $E$.`,
      f_finalLn: r`Final LN (Pre-LN): multiplied by $\sqrt d/\lVert \role{in}{x_L}\rVert$ (Lemma 3), {{pre.gain}} at 6 layers, and smaller the deeper the model.`,
      f_ln2: r`The last layer’s second LN (Post-LN): multiplied by $\sqrt d/\lVert \role{in}{x^{\text{post},5}_L}\rVert\approx\sqrt{2/3}$ ({{post.gain}} here), whatever the depth.`,
      f_residual: r`Residual addition: the gradient passes unchanged into the FFN branch (and on down the trunk), a factor of 1.`,
      f_w2: r`$\role{param}{W^2}$: the gradient of entry $(p,q)$ is the gradient at FFN output $q$ times hidden unit $p$, $\mathrm{ReLU}(\role{in}{x}\role{param}{W^1})_p$. Theorem 1’s three factors meet here.`,
      tableView: 'All steps as a table',
    },
    fig2: {
      title: 'The Pre-LN stack and its final LN',
      caption: r`Pre-LN’s six layers and the final LN, stacked from the bottom up. Move the pointer up and down over the stack: the selected layer gets an outline and the layers above it lift away. The readout shows the residual-stream length at that layer’s output (measured) and the multiplier the gradient picks up when it passes the final LN.`,
      readoutLayer: 'Layer {l}',
      readoutNorm: '‖xₗ‖²/d = {v}',
      readoutGain: 'Final-LN multiplier √d/‖x‖ (layer L) = {g}',
      finalLn: 'Final LN',
      hint: 'Move the pointer up and down the stack (or use the arrow keys) to pick a layer.',
      readoutFinalOut: 'output ‖·‖²/d = 1',
      'col.layer': 'Layer',
      'col.norm2': '‖xₗ‖²/d (mean)',
      'col.std': 'std over seeds',
      'col.lo': 'Lemma 2 low',
      'col.hi': 'Lemma 2 high',
    },
    fig3: {
      title: 'Gradients and residual stream at initialization, measured',
      caption: r`Measured with the minimal implementation ($d=$ {{probe.d}}): mean over {{probe.seeds}} seeds, ± one standard deviation in (a). **(a)** The $\role{param}{W^2}$ gradient of every layer of the {{probe.layers}}-layer model, in the same statistic as the paper’s Fig. 3(b): average the gradients of {{probe.batches}} batches, then take the Frobenius norm; the per-batch norm is shown alongside. **(b)** Residual-stream length $\lVert \role{in}{x_l}\rVert^2/d$; the shaded band is Lemma 2’s interval. **(c)** The last layer’s $\role{param}{W^2}$ gradient against the total number of layers ({{depth.min}} to {{depth.max}}, {{probe.depth_batches}} batches per seed). Solid: the mean per-batch gradient norm, which is what Theorem 1 bounds. Dashed: the paper’s statistic. Dotted: Pre-LN’s {{depth.min}}-layer value extrapolated by $1/\sqrt L$.`,
      panelA: '(a) W² gradient per layer, {layers} layers',
      panelB: '(b) Residual-stream length',
      panelC: '(c) Last-layer W² gradient vs depth',
      axisLayer: 'layer l',
      axisGrad: '‖∂ℒ/∂W²‖ (Frobenius)',
      axisNorm: '‖xₗ‖²/d',
      axisDepth: 'number of layers L',
      band: 'Lemma 2 band',
      perBatch: 'mean per-batch norm (Theorem 1)',
      paperStat: 'norm of the batch-averaged gradient (paper)',
      extrapolation: 'Pre-LN at {L0} layers × √({L0}/L)',
      'stat.label': 'Statistic',
      'ctl.seeds': 'seeds',
      'ctl.batches': 'batches',
      'ctl.depths': 'depths',
      'ctl.small': 'small, fast config (d=64)',
      'err.seeds': 'seeds must be an integer from 1 to 5',
      'err.batches': 'batches must be an integer from 1 to 20',
      'err.depths': 'pick at least one depth',
      'ctl.model': 'model (empty: the drawn probe’s; the small config’s when it is ticked)',
      'ctl.layers': 'layers L, panels (a) (b)',
      'ctl.d': 'width d',
      'ctl.d_ff': 'FFN width d_ff',
      'ctl.batch': 'batch B',
      'ctl.seq': 'sequence length n',
      'err.layers': 'layers must be an integer from {min} to {max}',
      'err.d': 'd must be an integer from {min} to {max}',
      'err.d_ff': 'd_ff must be an integer from {min} to {max}',
      'err.batch': 'the batch must be an integer from {min} to {max}',
      'err.seq': 'the sequence length must be an integer from {min} to {max}',
      'err.memory':
        'the deepest model of this probe does not fit in the engine’s 1 GiB per run: lower the largest depth, layers, d, d_ff, batch or the sequence length',
      readoutA: 'Layer {l}: {values}',
      'readoutA.item': '{name} {v} ± {sd}',
      readoutB: 'Layer {l}: {values} (Lemma 2: {lo}–{hi})',
      'readoutB.item': '{name} {v}',
      readoutC: 'L = {L}: {values} (per-batch / paper), 1/√L: {extrap}',
      'readoutC.item': '{name} {v} / {paper}',
      'col.layer': 'layer',
      'col.depth': 'L',
    },
    fig4: {
      title: 'Warm-up at toy scale',
      caption: r`Training loss of {{toy.model}} with {{toy.optimizer}}, each curve the mean over its seeds ({{toy.seeds}} per curve here). Colour: where the LayerNorm sits; line style: warm-up length in steps (solid: none; drawn here: {{toy.warmups}}). The dotted line is the optimal loss, $\ln 4$. One panel per peak learning rate (here {{toy.lrs}}; the article: Adam, warm-up 0 and 300, peak $10^{-3}$ and $3\times10^{-3}$). The numbers are illustrative only. (The original script is train_toy.py; here the runs come from the page’s engine.)`,
      axisStep: 'step',
      axisLoss: 'training loss',
      noWarmup: 'no warm-up',
      warmup: '{w}-step warm-up',
      lnOpt: 'optimum ln 4',
      plateau: 'plateau',
      seedsHint: 'Each line is the mean of {n} seeds.',
      seedsHintOne: 'Each line is one seed.',
      seedsHintRuns: 'Each line is the mean of its run’s seeds; the legend gives how many.',
      axisOnPlateau: 'on plateau',
      shareHint: 'Under each panel: the share of each line’s seeds still on the plateau at every step (a seed has left it once its loss is {drop} below it).',
      'fact.seeds': '{n} seeds',
      'fact.seedsOne': '1 seed',
      'fact.steps': '{n} steps',
      diverged: 'diverged at step {s}',
      panel: 'peak lr {lr}',
      'ref.uniform': 'ln 256 (uniform)',
      'ctl.placements': 'placements',
      'ctl.lrs': 'peak lrs',
      'ctl.warmups': 'warm-ups',
      'ctl.warmupShape': 'warm-up shape',
      'ctl.seeds': 'seeds',
      'ctl.steps': 'steps',
      'ctl.optimizer': 'optimizer',
      lrHint: 'a peak lr at which the toy learns with this optimizer: {lr}',
      'err.lrs': '1 to {count} learning rates in {range}, comma-separated',
      'err.warmups': '1 to {count} warm-up lengths, integers in {range}',
      'err.warmupShape': 'a straight line or a half-cosine ramp',
      'err.seeds': 'seeds must be an integer from 1 to {max}',
      'err.steps': 'steps must be an integer from {min} to {max}',
      'err.optimizer': 'one of the engine’s optimizers',
      'err.hyper': 'a number in the range shown (empty: the engine’s default)',
      'err.placements': 'tick at least one placement',
      'err.runs': 'too many runs: placements × peak lrs × warm-ups × seeds must be at most {max}; untick a placement or use fewer seeds',
      'ctl.model': 'model (empty: the article’s)',
      'ctl.layers': 'layers L',
      'ctl.d': 'width d',
      'ctl.d_ff': 'FFN width d_ff',
      'ctl.batch': 'batch B',
      'ctl.seq': 'sequence length n',
      'err.layers': 'layers must be an integer from {min} to {max}',
      'err.d': 'd must be an integer from {min} to {max}',
      'err.d_ff': 'd_ff must be an integer from {min} to {max}',
      'err.batch': 'the batch must be an integer from {min} to {max}',
      'err.seq': 'the sequence length must be an integer from {min} to {max}',
      'err.memory': 'this model does not fit in the engine’s 1 GiB per run: lower layers, d, d_ff, batch or the sequence length',
      'err.gridMemory':
        'these runs together do not fit in the engine’s 1.5 GiB for a grid (it holds every run’s weights, gradients and optimizer state at once): fewer runs, or lower layers, d, d_ff',
      'ctl.arch': 'architecture (as drawn unless changed)',
      'ctl.norm_type': 'norm',
      'ctl.final_norm': 'final norm',
      'ctl.output': 'output layer',
      'ctl.input_scale': 'input',
      'err.choice': 'not one of this setting’s values (the live-run settings list them)',
      'warn.warmup': 'a warm-up is longer than the run: its learning rate never reaches the peak',
      'preset.quick': 'Quick look (about a minute): the cheapest setting in which the three toy claims hold',
      'preset.full': 'Full: the article’s setting',
      'preset.label': 'presets',
      'preset.deepnorm': 'DeepNorm without warm-up, next to Post-LN',
      'preset.preHighLr': 'Pre-LN at high peak lrs, with and without warm-up',
      readout: 'Step {step}, peak lr {lr}: {values}',
      reference: 'reference',
      referenceMuted: 'reference (muted under your runs)',
      'col.run': 'run',
      'col.norm': 'placement',
      'col.warmup': 'warm-up',
      'col.lr': 'peak lr',
      'col.status': 'status',
      'col.at': 'loss at step {s}',
    },
    fig5: {
      title: 'How much the output moves when every weight moves a little',
      caption: r`Mean squared change of the logits of one toy batch when every weight moves by $\delta=$ {{exp.os.delta}}, against the number of layers $L$, at initialization; log–log axes, mean over seeds, one colour per placement. Dashed: $O(L)$ through Post-LN’s first point; dotted: $O(\log L)$ through Pre-LN’s. The toggle switches between a random direction and Adam’s sign step.`,
      panel: 'Change of the logits against depth',
      axisDepth: 'layers L',
      axisSens: 'mean squared change of the logits',
      guideLinear: 'O(L)',
      guideLog: 'O(log L)',
      'kind.label': 'Perturbation',
      'kind.random': 'random, δ·N(0, 1)',
      'kind.sign': 'Adam’s sign step, −δ·sign(g)',
      readout: 'L = {L}: {values}',
      'readout.item': '{name} {v}',
      'col.depth': 'L',
      'col.slope': 'log–log slope',
      'ctl.small': 'Quick setting that still shows the effect (depths {depths}, {seeds} seed: seconds)',
    },
    fig6: {
      title: 'The tied embedding and the fall of Pre-LN’s gradient',
      caption: r`Figure 3c’s sweep for one of four models: the output layer tied to the embedding or a matrix of its own, the input $\sqrt d\cdot E[\text{tok}]$ or $E[\text{tok}]$ (tied with $\sqrt d$ is the article’s model, and Figure 3c). **(a)** The last layer’s $\role{param}{W^2}$ gradient against the number of layers (per-batch statistic, mean over seeds); dotted: Pre-LN’s first value extrapolated by $1/\sqrt L$. **(b)** The initial model’s mean probability of the current token (log axis); dashed: uniform, $1/V$.`,
      panelA: '(a) Last layer’s W² gradient',
      panelB: '(b) Probability of the current token',
      axisDepth: 'layers L',
      axisGrad: '‖∂ℒ/∂W²‖ (per batch)',
      axisP: 'p(current token)',
      extrapolation: 'Pre-LN × 1/√L',
      uniform: 'uniform 1/V',
      'output.label': 'Output layer',
      'output.tied': 'tied to the embedding',
      'output.untied': 'its own matrix',
      'input.label': 'Input',
      'input.sqrt_d': '√d·E[token]',
      'input.none': 'E[token]',
      readout: 'L = {L}: gradient {values}; p(current) {p}',
      'readout.item': '{name} {v}',
      'col.variant': 'model',
      'col.slope': 'Pre-LN’s log–log slope (−0.5 = 1/√L)',
      'ctl.small': 'Quick setting that still shows the effect (d = {d}, depths {depths}, {seeds} seed: seconds)',
    },
    fig7: {
      title: 'Adam’s first steps against the gradient’s scale',
      caption: r`The toy model of Figure 4 trained with Adam at peak lr {{exp.afs.lr}}, no warm-up, one colour per placement. **(a)** The gradient norm $\lVert g_t\rVert$ at each step. **(b)** The update’s root mean square over every coordinate divided by the step’s learning rate: 1 (dotted) means every coordinate moved by $\mathrm{lr}$.`,
      panelA: '(a) Gradient norm',
      panelB: '(b) Update per coordinate / lr',
      axisStep: 'step',
      axisGrad: '‖g‖',
      axisRms: 'RMS(Δθ) / lr',
      refLr: 'every coordinate moves by lr',
      readout: 'Step {t}: ‖g‖ {grad}; update / lr {rms}',
      'readout.item': '{name} {v}',
      'col.step': 'step',
      'ctl.small': 'Quick setting that still shows the effect ({layers} layers, d = {d}, {steps} steps: seconds)',
    },
    fig8: {
      title: 'When Post-LN leaves the plateau, against the warm-up',
      caption: r`The step at which the seed-mean loss of the toy first falls 0.5 below the plateau (a 10-step mean), against the warm-up’s length; colour: placement, line style: optimizer (Adam solid, RAdam dashed, SGD with momentum dotted), each at its suggested peak lr or three times it (the toggle). A marker on the top line: the run never leaves the plateau within its {{exp.wl.steps}} steps.`,
      panel: 'Escape from the plateau',
      axisWarmup: 'warm-up steps (square-root scale)',
      axisEscape: 'escape step',
      never: 'never',
      'lr.label': 'Peak lr',
      'lr.lo': 'each optimizer’s suggested',
      'lr.hi': 'three times that',
      series: '{placement} · {optimizer} · {lr}',
      readout: 'Warm-up {w}: {values}',
      'readout.item': '{name} {v}',
      'col.series': 'run',
      'ctl.small':
        'Quick setting that still shows both effects ({layers} layers, d = {d}, {steps} steps, {seeds} seed, each optimizer at its suggested lr; “Recompute in your browser” says how long either setting takes here)',
    },
    fig9: {
      title: 'The token-specific share of the hidden state during training',
      caption: r`For each run of Figure 4’s model (Adam, peak lr $10^{-3}$, one seed), the share of each layer’s hidden state that differs between tokens, on a fixed batch, against the training step; the stronger the colour, the more token-specific (one colour per placement). A faint column over every layer means every token carries the same vector.`,
      panel: '{placement}, warm-up {warmup}',
      axisStep: 'step',
      axisLayer: 'layer',
      scale: 'token-specific share, 0 → 1',
      readout: 'Step {step}, layer {layer}: {values}',
      'readout.item': '{name} {v}',
      'ctl.small': 'Quick setting that still shows the effect ({layers} layers, d = {d}, {steps} steps: seconds)',
    },
    fig10: {
      title: 'Adam’s first step in function space, against depth',
      caption: r`At initialization, the toy model’s gradient $g$ on one batch and the sign step $\theta-\eta\,\mathrm{sign}(g)$, Adam’s first step at lr $\eta$; one colour per placement, mean over seeds, log axes. **(a)** $\eta^*$, the step size with the lowest loss on that batch. **(b)** The mean squared change of the logits when only one layer takes the step, averaged over the layers.`,
      panelA: '(a) Best sign-step size η*',
      panelB: '(b) One layer’s effect on the logits',
      axisDepth: 'layers L',
      axisEta: 'η*',
      axisLayer: 'mean ‖Δlogits‖²',
      readout: 'L = {L}: η* {eta}; one layer’s effect {layer}',
      'readout.item': '{name} {v}',
      'ctl.small': 'Quick setting that still shows the effect (depths {depths}, {seeds} seed: seconds)',
    },
    fig11: {
      title: 'Appendix F’s decay against the residual Jacobian',
      caption: r`At initialization, the probe’s model at the depth $L$ of the drawn run (mean over its seeds). **(a)** Figure 3a at that depth: the $\role{param}{W^2}$ gradient of each layer (per-batch statistic, log axis); dashed: Appendix F’s prediction for the chosen placement, the last layer’s value times $(2/3)^{(L-l)/2}$. **(b)** For the chosen placement, the factor by which the gradient’s norm changes while crossing layer $l$ downwards: through its norms (after each add), through its residual Jacobians $I+\partial \role{op}{F}/\partial \role{in}{x}$, and the whole layer; dotted: 1 (flat), dashed: Appendix F’s $\sqrt{2/3}$.`,
      panelA: '(a) W² gradient per layer, and Appendix F’s decay',
      panelB: '(b) Factors on the gradient per layer: {placement}',
      axisLayer: 'layer l',
      axisGrad: '‖∇W²‖',
      axisFactor: 'factor',
      appendixF: 'Appendix F’s prediction',
      'factor.norm': 'norms',
      'factor.residual': 'residual Jacobians',
      'factor.layer': 'whole layer',
      'guide.flat': 'flat: 1',
      'guide.appendixF': 'Appendix F: √(2/3)',
      'placement.label': 'Panel (b) and the prediction for',
      readout: 'Layer {layer}: W² gradient {values}; factors {factors}',
      'readout.item': '{name} {v}',
      'ctl.small': 'Quick setting that still shows the effect ({layers} layers, d = {d}, {seeds} seed: seconds)',
    },
  },
};

export default article;
