// zh.ts — ln-explorable 的中文正文。只放文字；实测数字一律经 {{key}} 绑定（web/src/lib/prose-numbers.ts）填入，
// TeX 写在 String.raw 模板（`r`）里，反斜杠原样保留。
import type { Article } from './types';

const r = String.raw;

const article: Article = {
  lang: 'zh',
  title: 'LayerNorm 放在哪，初始化时的梯度就有多大',
  subtitle:
    '为什么 Post-LN 的 Transformer 离不开学习率预热，Pre-LN 却基本可以不要：细读 Xiong et al. 2020（On Layer Normalization in the Transformer Architecture），文中的实测都能在浏览器里重跑。',
  evidenceLabels: {
    paper: '文中有据',
    inferred: '推断',
    guess: '猜测',
    measured: '实测',
  },
  sections: [
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'hook',
      title: '8.45 和 34 之间，只隔着一段预热',
      blocks: [
        {
          kind: 'p',
          text: r`拿一个最常见的 Transformer：编码器 6 层，解码器 6 层，在 IWSLT14 德→英翻译上用 Adam 训练，峰值学习率取 $10^{-3}$ 或 $5\times10^{-4}$。不做学习率预热（warm-up），BLEU 停在 8.45；做 4000 步预热，BLEU 能到 34 上下。网络结构没换，数据没换，峰值学习率也没换，唯一不同的是开头几千步里学习率是怎么爬上去的。`,
          evidence: 'paper',
          evidenceNote: '第 4 页、图 2(a)',
        },
        {
          kind: 'p',
          text: r`预热本身只有一行公式：在最初 $T_{\text{warmup}}$ 步里，学习率沿直线从 0 涨到峰值。`,
        },
        {
          kind: 'math',
          tex: r`\mathrm{lr}(t)=\frac{t}{T_{\text{warmup}}}\,\mathrm{lr}_{\max},\qquad t\le T_{\text{warmup}}`,
        },
        {
          kind: 'p',
          text: r`代几个数进去就清楚了。取 $T_{\text{warmup}}=4000$、$\mathrm{lr}_{\max}=10^{-3}$：第 1 步的学习率只有 $2.5\times10^{-7}$，第 400 步才到 $10^{-4}$，要等到第 4000 步才用满峰值。换句话说，开头那几百步，参数基本没怎么动，模型主要是在“读”梯度。`,
        },
        {
          kind: 'p',
          text: r`预热的长短和峰值的高低还得一起调。预热只给 500 步时，$\mathrm{lr}_{\max}=5\times10^{-4}$ 还能拿到 31.16，换成 $10^{-3}$ 就跌到 2.77。`,
        },
        {
          kind: 'paperFigure',
          text: r`论文图 2 在第 4 页：左边两幅用 Adam，右边两幅用 SGD。值得看的是每幅图底部那几条几乎趴平的 BLEU 曲线，它们无一例外是没有预热、或者预热给得太短的配置。至于 8.45 是哪个峰值学习率跑出来的，原文没有交代。`,
        },
        {
          kind: 'p',
          text: r`当时对这个现象流行两种说法。第一种出自大批量训练（Goyal et al. 2017）：批量特别大的时候，一上来就用大学习率，容易把模型甩进一片糟糕的区域，所以得慢慢加。可这里一批才 4096 个 token，和“大批量”根本不沾边。`,
          evidence: 'paper',
          evidenceNote: '第 4—5 页',
        },
        {
          kind: 'p',
          text: r`第二种出自 RAdam（Liu et al. 2019a，On the Variance of the Adaptive Learning Rate and Beyond）：训练刚开始时，Adam 的二阶矩估计 $v_t$ 只攒了寥寥几个梯度，噪声极大，自适应步长跟着忽高忽低；预热就是为了拖一拖，等 $v_t$ 变得可信。`,
        },
        {
          kind: 'p',
          text: r`作者用一个对照把第二种说法驳掉了一半：把 Adam 换成不带二阶矩的普通 SGD，不预热照样训不起来，跑满 15 个 epoch，BLEU 才勉强离开 0。既然连 SGD 都离不开预热，问题就不能全算在 Adam 头上。`,
          evidence: 'paper',
          evidenceNote: '第 4—5 页',
        },
        {
          kind: 'p',
          text: r`不过这个对照要打点折扣。图 2(b) 里，*有*预热的 SGD 同样远远落后于 Adam。SGD 本来就不擅长训 Transformer，它训不好，背后的原因可能不止一条。讲到 Adam 那一节我们再回来看。`,
        },
        {
          kind: 'p',
          text: r`作者把赌注压在了另一边：既然预热只在最初几千步起作用，那就直接去看第 0 步，看看刚初始化完的那一刻，梯度是什么样子。`,
        },
        {
          kind: 'p',
          text: r`事后看，他们手里有三张牌：`,
          evidence: 'inferred',
          evidenceNote: '引言第 2 页、相关工作第 2 页',
        },
        {
          kind: 'list',
          ordered: true,
          items: [
            r`**一个几乎没法反驳的现象。**只动一个调度超参数，BLEU 就在 8.45 和 34 之间来回跳。`,
            r`**现成的工具。**同一批作者（Di He、Liwei Wang、Tie-Yan Liu）前一年刚从动力系统的角度分析过 Transformer（Lu et al. 2019），用平均场理论（mean field theory）研究初始化，对他们来说是熟门熟路。`,
            r`**最硬的一张：药方早就有了。**Pre-LN 在 Tensor2Tensor 里已有实现，在 fairseq 里只是一个命令行开关，谁都可以一行代码不改就试一试。`,
          ],
        },
        {
          kind: 'p',
          text: r`所以 Pre-LN 并不是这篇论文发明的。它的贡献在于说清 Pre-LN 为什么好训，再顺着这个道理把预热拿掉。差不多同一时间，Nguyen & Salazar（2019，Transformers without Tears）也在实验里发现 Pre-LN 不预热也能训；这篇论文比它多出来的，是理论。`,
          evidence: 'inferred',
          evidenceNote: '引言第 2 页、相关工作第 2 页',
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'placements',
      title: 'LN 的两种摆法',
      blocks: [
        {
          kind: 'p',
          text: r`Transformer 的一层里有两个子层，一个是自注意力，一个是前馈网络（FFN），两者外面各套着一条残差连接和一个 LayerNorm（后文简写为 LN）。论文比较的只有一件事——这个 LN 放在哪。两种写法各一行：`,
        },
        {
          kind: 'math',
          tex: r`\text{Post-LN:}\quad x\leftarrow \role{norm}{\mathrm{LN}}\big(\role{in}{x}+\role{op}{F}(\role{in}{x})\big)\qquad\qquad \text{Pre-LN:}\quad x\leftarrow \role{in}{x}+\role{op}{F}\big(\role{norm}{\mathrm{LN}}(\role{in}{x})\big)`,
        },
        {
          kind: 'p',
          text: r`式中的 $\role{op}{F}$ 先是注意力，再是 FFN。Post-LN 就是 2017 年原始 Transformer 和 BERT 的做法：先加，后归一化。Pre-LN 则把 LN 搬到子层门口：先归一化，再送进子层，子层的输出原样加回主干。这样一来，主干一路上都没被归一化过，所以 Pre-LN 要在网络末尾、输出层之前，再补上一个 LN。`,
        },
        { kind: 'figure', id: 'fig1' },
        {
          kind: 'p',
          text: r`把图看成一根从下通到上的主干，区别马上就显出来了。Post-LN 的主干上，每个子层后面都守着一个 LN，信号和梯度每经过一层，就要被归一化两回。Pre-LN 的主干上除了加号什么都没有：从词嵌入出发，直到末尾那个 LN，途中没有一处会去动它的尺度；子层像长在主干旁边的枝杈，只负责往上加东西。`,
        },
        {
          kind: 'p',
          text: r`下面所有的推导都建立在这两根主干上。为了让式子算得动，论文做了三处简化（第 5 页）：`,
        },
        {
          kind: 'list',
          ordered: true,
          items: [
            r`注意力只用一个头；`,
            r`所有权重矩阵都是 $d\times d$；`,
            r`$\role{param}{W^Q}$、$\role{param}{W^K}$ 初始化成零。这样一开始，任何一个位置分给序列中各个位置的权重都相等，都是 $1/n$，注意力子层退化成把 $\role{in}{x}\role{param}{W^V}$ 在整条序列上求平均。`,
          ],
        },
        {
          kind: 'p',
          text: r`前两条只会改变常数。第三条是为了能把引理 2 算出来，代价是把初始化时注意力可能带来的、依赖数据的混合效应全部抹掉了。实际训练时，$\role{param}{W^Q}$ 和 $\role{param}{W^K}$ 用的是 Xavier 初始化，并不是零。`,
        },
        {
          kind: 'p',
          text: r`顺便指出引言里一处引错的地方。论文第 1 页把 GPT-2（Radford et al. 2019）归到基于 Post-LN 的预训练模型里。可 GPT-2 论文第 2.3 节写得清清楚楚：LN 被移到了每个子块的输入端，并且在最后一个自注意力块之后又加了一个 LN——这恰恰就是 Pre-LN。也就是说，早在 2019 年，当时最大的生成式模型已经用上 Pre-LN 了。`,
          evidence: 'paper',
          evidenceNote: '本文第 1 页；GPT-2 论文第 2.3 节',
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'jacobian',
      title: 'LayerNorm 的雅可比矩阵',
      blocks: [
        {
          kind: 'p',
          text: r`梯度穿过一个 LN，是变大还是变小？回答之前，先弄清 LN 在几何上干了什么。令 $\gamma=1$、$\beta=0$（初始化时它们正是这两个值）：`,
        },
        {
          kind: 'math',
          tex: r`\role{norm}{\mathrm{LN}}(\role{in}{x})=\frac{\role{in}{x}-\mu\mathbf 1}{\sigma},\qquad \mu=\frac1d\sum_k \role{in}{x_k},\qquad \sigma^2=\frac1d\sum_k (\role{in}{x_k}-\mu)^2`,
        },
        {
          kind: 'p',
          text: r`拆成两个动作来看。第一步减均值，相当于把 $\role{in}{x}$ 投影到与全 1 向量正交的超平面上，投影结果记作 $y$。第二步除以 $\sigma$，而 $\sigma$ 恰好等于 $\lVert y\rVert/\sqrt d$，所以出来的向量长度永远是 $\sqrt d$。换句话说，不管输入是什么，LN 的输出一律位于半径为 $\sqrt d$ 的球面上；输入只负责挑方向。`,
        },
        {
          kind: 'p',
          text: r`由此立刻得到一个推论：输入整体乘以 10，输出纹丝不动，$\role{norm}{\mathrm{LN}}(10\role{in}{x})=\role{norm}{\mathrm{LN}}(\role{in}{x})$。`,
        },
        {
          kind: 'callout',
          text: r`往下读之前，先自己想一想：把同一个小扰动 $\delta$ 分别加到一个很短的 $\role{in}{x}$ 和一个很长的 $\role{in}{x}$ 上，哪一次 LN 的输出变化更大？`,
        },
        {
          kind: 'p',
          text: r`是短的那个。$\role{in}{x}$ 越长，同样大的 $\delta$ 能让它偏转的角度就越小，而 LN 的输出只认方向。偏转角大约是 $\lVert\delta\rVert/\lVert y\rVert$，再乘以球面半径 $\sqrt d$，就是输出变化的幅度。论文的引理 3 说的就是这件事：`,
        },
        {
          kind: 'math',
          tex: r`J_{\role{norm}{\mathrm{LN}}}(\role{in}{x})=\frac{\sqrt d}{\lVert y\rVert_2}\Big(I-\frac{y y^\top}{\lVert y\rVert_2^2}\Big)\Big(I-\frac1d\mathbf 1\mathbf 1^\top\Big),\qquad \lVert J_{\role{norm}{\mathrm{LN}}}(\role{in}{x})\rVert_2=O\Big(\frac{\sqrt d}{\lVert \role{in}{x}\rVert_2}\Big)`,
        },
        {
          kind: 'p',
          text: r`后面那一对括号是两个投影，特征值只有 0 和 1 两种。前一个去掉沿 $y$ 方向的分量：顺着半径往外推，输出不会变。后一个去掉沿全 1 方向的分量：给每个坐标加上同一个数，减均值时又被减回去了。所以雅可比有多大，全由打头的标量 $\sqrt d/\lVert y\rVert$ 说了算。反向传播时，梯度左乘的是 $J_{\role{norm}{\mathrm{LN}}}^\top$，于是这个标量也原封不动地落到了梯度上。`,
        },
        {
          kind: 'p',
          text: r`结论很简单：只要量出每个 LN 入口处向量的长度，梯度经过它时被缩放了几倍，也就一清二楚。下一节就来算这些长度——两种摆法正是在这里走上了不同的路。`,
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'residual',
      title: '残差流会长多粗',
      blocks: [
        {
          kind: 'p',
          text: r`先备一个小工具，即论文的引理 1：一个 $d$ 维向量，各坐标独立地服从 $N(0,\sigma^2)$，让它过一次 ReLU，长度平方的期望就从 $\sigma^2 d$ 降到 $\tfrac12\sigma^2 d$。道理一句话就能讲完：每个坐标各有一半的机会被清零或保留，而对称分布正半边的二阶矩，刚好占整体的一半。`,
        },
        {
          kind: 'p',
          text: r`再看一个 FFN 子层会把长度变成多少。设输入的长度平方为 $d$，权重从 $N(0,1/d)$ 里抽。乘过 $\role{param}{W^1}$，每个坐标的方差是 1；ReLU 砍掉一半；再乘过 $\role{param}{W^2}$，长度平方的期望是 $d/2$。支路的输出和主干的输入在期望意义下互不相关（交叉项里含有一个零均值的随机权重），所以两者相加时，长度平方直接相加。`,
        },
        {
          kind: 'p',
          text: r`有了这两步，引理 2 不过是一笔流水账。`,
        },
        { kind: 'h3', text: 'Post-LN' },
        {
          kind: 'p',
          text: r`每一层拿到的输入都刚从 LN 里出来，长度平方正好是 $d$。在均匀注意力的简化下，注意力子层往上加一个均值向量，随后的 LN 又把总长拉回 $d$。FFN 子层再添 $d/2$，得到 $\mathbb E\lVert \role{in}{x^{\text{post},5}_{l}}\rVert^2=\tfrac32 d$，接着被本层最后一个 LN 重新压回 $d$。层层如此，跟 $l$ 没有关系。`,
        },
        { kind: 'h3', text: 'Pre-LN' },
        {
          kind: 'p',
          text: r`主干上只做加法，没有谁负责把它拉回来。每层往主干上添两份：注意力那份介于 0 和 $d$ 之间（看序列里的向量平均之后还剩多长），FFN 那份是 $d/2$。从 $\lVert \role{in}{x_0}\rVert^2=d$ 出发，逐层累加：`,
        },
        {
          kind: 'math',
          tex: r`\Big(1+\frac l2\Big)d\ \le\ \mathbb E\lVert \role{in}{x^{\text{pre}}_{l}}\rVert^2\ \le\ \Big(1+\frac{3l}{2}\Big)d`,
        },
        {
          kind: 'p',
          text: r`到第 6 层，它落在 $4d$ 和 $10d$ 之间；到第 24 层，落在 $13d$ 和 $37d$ 之间。残差流随着层数线性地变粗。`,
        },
        {
          kind: 'p',
          text: r`这两条结论我们都直接量过，用的是“梯度沿深度”一节末尾那份最小实现（$d=512$，6 层，单头，Xavier 初始化，$d_{ff}=2d$，5 个随机种子）。Post-LN 六层的 $\lVert \role{in}{x^{\text{post},5}_l}\rVert^2/d$ 分别是 {{post.norm2}}，每层在不同种子之间的标准差都不超过 {{post.norm2.maxstd}}。`,
          evidence: 'measured',
          evidenceNote: '最小实现，d = 512，6 层，5 个种子',
        },
        {
          kind: 'p',
          text: r`理论上的 1.5 假定权重是 $d\times d$、方差 $1/d$。按我们的 $d_{ff}=2d$ 加 Xavier 重记一遍账，预测值是 $1+4/9\approx1.44$；实测的平均值 {{post.norm2.mean}} 与之吻合。`,
        },
        {
          kind: 'p',
          text: r`Pre-LN 的 $\lVert \role{in}{x_l}\rVert^2/d$ 依次为 {{pre.norm2}}，每过一层大约多出 {{pre.norm2.step}}，落在引理 2 给的区间之内，贴近下沿。`,
          evidence: 'measured',
          evidenceNote: '同上设定',
        },
        { kind: 'figure', id: 'fig2' },
        {
          kind: 'p',
          text: r`现在把这一节和上一节连起来。在 Pre-LN 里，梯度从损失出发，不管要去哪个参数，第一站都是最后那个 LN，而这个 LN 的入口偏偏是全网络最粗的一段残差流。按引理 3，梯度在这里要乘上 $\sqrt d/\lVert \role{in}{x_L}\rVert\approx 1/\sqrt{1+cL}$。6 层时我们量到 $\lVert \role{in}{x_6}\rVert^2/d=$ {{pre.norm2.last}}，对应的倍数是 {{pre.gain}}。层数一多，倍数就跟着缩水；更要紧的是，全网所有参数的梯度都得被它乘上一遍。`,
        },
        {
          kind: 'p',
          text: r`Post-LN 最后一个 LN 的入口始终在 $\tfrac32 d$ 左右，倍数也就稳定在 $\sqrt{2/3}\approx0.82$ 附近（我们的设定下实测为 {{post.gain}}），层数再多也不变。`,
        },
        {
          kind: 'callout',
          text: r`整篇论文的机制就是这些。妙在两个引理都只是记账，没有哪一步要用到注意力的具体行为；短处也出在这里——后面会看到，这本账只记到了最后一层。`,
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'theorem',
      title: '定理 1：两个上界',
      blocks: [
        {
          kind: 'p',
          text: r`有了引理 2、引理 3，主定理说穿了就是链式法则，把两者往里一代。它关心的只有一个矩阵，即最后一层 FFN 的第二个权重矩阵 $\role{param}{W^{2,L}}$：`,
        },
        {
          kind: 'math',
          tex: r`\text{Post-LN:}\ \Big\lVert \frac{\partial\role{loss}{\tilde{\mathcal L}}}{\partial \role{param}{W^{2,L}}}\Big\rVert_F\le O\big(d\sqrt{\ln d}\big)\qquad\qquad \text{Pre-LN:}\ \Big\lVert \frac{\partial\role{loss}{\tilde{\mathcal L}}}{\partial \role{param}{W^{2,L}}}\Big\rVert_F\le O\Big(d\sqrt{\frac{\ln d}{L}}\Big)`,
        },
        {
          kind: 'p',
          text: r`两式成立的概率不低于 $0.99-\delta-\epsilon/(0.9+\epsilon)$，条件是隐状态的长度满足某种集中性。`,
        },
        { kind: 'h3', text: '证明的骨架' },
        {
          kind: 'p',
          text: r`从 $\role{param}{W^{2,L}}$ 里挑出第 $p$ 行第 $q$ 列的那一个元素。它要影响损失，只有一条路：改动 FFN 输出的第 $q$ 个坐标，这个坐标穿过一个 LN，再进入损失。所以这个元素的梯度是三个因子的乘积（附录 E，式 34 至 38）。哪个因子对应什么，可以从它们最后拼出的界里倒推出来：`,
          evidence: 'inferred',
          evidenceNote: '三个因子的含义由下文算出的界反推',
        },
        {
          kind: 'list',
          ordered: true,
          items: [
            r`损失对 LN 输出有多敏感，界里把它当作常数；`,
            r`它所穿过的那个 LN 的缩放，即 $\sqrt d$ 除以该 LN 入口的长度。平方之后，Post-LN（入口是 $\role{in}{x^{\text{post},5}_L}$）为 $d/(\tfrac32 d)$，Pre-LN（最后那个 LN 看到的是 $\role{in}{x_L}$）为 $1/(1+L/2)$；`,
            r`第 $p$ 个隐藏单元，也就是这个元素要去乘的那个 ReLU 值，其上界取 $\sqrt{2\ln 100d}$。`,
          ],
        },
        {
          kind: 'p',
          text: r`三个因子相乘、平方，在全部 $d^2$ 个元素上求和，再开方。Post-LN 得到`,
        },
        {
          kind: 'math',
          tex: r`\sqrt{d^2\cdot \frac{d}{(3/2)d}\cdot 2\ln 100d}=O\big(d\sqrt{\ln d}\big)`,
        },
        {
          kind: 'p',
          text: r`Pre-LN 的第二个因子多乘了一个 $1/(1+L/2)$，多出来的那个 $1/\sqrt L$ 就是从这里来的。`,
        },
        { kind: 'h3', text: 'd = 512 时，这个界有多松' },
        {
          kind: 'p',
          text: r`令 $d=512$。证明给第三个因子定的上界是 $\sqrt{2\ln(51200)}\approx4.66$，可一个 ReLU 单元通常也就 $\sqrt{\mathbb E[\mathrm{ReLU}(z)^2]}=\sqrt{0.5}\approx0.71$ 这么大。可证明偏偏对每个元素都按这一层里最坏的那个隐藏单元来算，光这一项就放宽了 6 倍以上。`,
        },
        {
          kind: 'p',
          text: r`概率那一项也值得算一算。按论文自己测出的集中程度，即 $(0.1,0.125)$-bounded（第 6 页），结果是 $0.99-0.125-0.1/1.0=0.765$。也就是说，放在作者自己的实验设定里，定理 1 是一个常数没写出来、成立概率约为 77% 的上界。`,
        },
        {
          kind: 'p',
          text: r`“$(\epsilon,\delta)$-bounded”这个说法本身并不玄：随机变量至少以 $1-\delta$ 的概率，落在其期望的 $\pm\epsilon$ 倍范围之内。它在证明里只干一件事：把引理 2 给出的*期望*长度，换成这一次实际取到的长度，好让引理 3 用得上。`,
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'bounds-gap',
      title: '拿上界去比上界',
      blocks: [
        {
          kind: 'p',
          text: r`论文由定理 1 推出：Post-LN 在输出层附近梯度大，Pre-LN 则小得多（第 6 页）。这一步逻辑上有个漏洞——两边都只是上界，上界大，不等于真实值大。想说 Post-LN 的梯度大，得有一个下界，而论文没有给。严格说来，定理 1 只撑得起这个结论的一半：它保证的仅仅是，Pre-LN 末层梯度头顶有一块随 $L$ 增大而压低的天花板。`,
          evidence: 'paper',
          evidenceNote: '定理 1 里只有不等号',
        },
        {
          kind: 'p',
          text: r`于是实验在这里要扛的分量比平常更重。论文图 3(c)(d) 把总层数从 6 变到 14：Post-LN 末层 $\role{param}{W^2}$ 的梯度一直徘徊在 1.6 左右，Pre-LN 则从 0.31 一路降到 0.125。这两条趋势我们在最小实现里都复现出来了（图 3 右），换哪种统计量都一样，可信度不低。`,
        },
        {
          kind: 'paperFigure',
          text: r`论文图 3 在第 7 页。(a)(b) 逐层画出 6-6 模型里 FFN 的梯度，两个矩阵各占一幅；Post-LN 用橙色，Pre-LN 用蓝色，预热结束后的 Post-LN 用绿色。(c)(d) 画的是最后一层 $\role{param}{W^2}$ 随总层数的变化。留意 (c) 和 (d) 的纵轴差了大约 4 倍；两幅都没有误差棒，尽管正文说跑了 10 个种子。`,
        },
        {
          kind: 'p',
          text: r`可是有两个细节和定理对不上。`,
        },
        { kind: 'h3', text: '对不上之一：降得有多快' },
        {
          kind: 'p',
          text: r`第一个是下降的速度。从 6 层到 14 层，按 $1/\sqrt L$ 算，梯度应当缩到原来的 $\sqrt{6/14}\approx$ {{depth.sqrtL.ratio}}。论文图 3(c) 缩到了 0.40，我们量到的是 {{depth.pre.ratio}}，实际比定理降得陡得多。这跟上界并不矛盾，却意味着随层数改变的不只是末尾那个 LN。`,
        },
        {
          kind: 'p',
          text: r`一个可能的来源，是输出层所见的向量里词嵌入自身占了多少。Pre-LN 的主干把 $\role{in}{x_0}$ 一路原样带到输出端；层数越多，经过最后那个 LN 归一化之后，它剩下的比例就越小。（图 3 之后的{{#fig6}} 检验了这一点。）`,
          evidence: 'guess',
        },
        { kind: 'h3', text: '对不上之二：层数固定时谁更大' },
        {
          kind: 'p',
          text: r`第二个是固定层数时的大小关系。6 层时，我们量到 Pre-LN 最后一层的梯度*反而*比 Post-LN 大（每批范数 {{depth.pre.L6}} 对 {{depth.post.L6}}），要到 {{depth.crossover}} 层起才倒过来。论文图 3 在 6 层处是 Post-LN 1.6、Pre-LN 0.31。`,
          evidence: 'measured',
          evidenceNote: '见下方图 3(c)',
        },
        {
          kind: 'p',
          text: r`两边的设定并不一样（我们是单头、只有编码器、$d_{ff}=2d$，目标是 $t\mapsto t+1$ 这个映射），所以这谈不上推翻论文。它提醒的是：$O(\cdot)$ 里藏着的常数，在 6 层这么浅的模型上，已经大到能决定谁大谁小。论文的结论，要到更深的模型上才站得稳。`,
        },
        { kind: 'figure', id: 'fig3' },
        {
          kind: 'test',
          title: '共享的词嵌入与 Pre-LN 梯度的下降',
          blocks: [
            {
              kind: 'p',
              text: r`这是本页自己的第一项检验；这些检验的图用字母编号，文章自己的图用数字。上面的解读里有好几步标着推断或猜测：论文没有测过它们。本页的引擎可以在玩具规模上、几秒之内测。每项检验都放在它所检验的论断旁边：先复述论断，再给出引擎测到的结果，最后给出结论——由数字按一条在运行之前就定好的规则算出（成立、不成立，或只在所述条件下成立）。结论只对玩具设定负责，不能替 6 层的翻译模型下定论。`,
            },
            {
              kind: 'p',
              text: r`“对不上之一”里的猜测：Pre-LN 最后一层的梯度比 $1/\sqrt L$ 降得快，是因为输出层看到的向量里有词嵌入本身——它沿主干原样传下来——而层数越多它占的比例越小。初始化时让这个比例变大的有两样东西：输出矩阵就是词嵌入（共享），以及输入乘了 $\sqrt d$，于是 $\lVert \role{in}{x_0}\rVert^2\approx d$ 和每一层的贡献并排留在主干里。`,
              evidence: 'guess',
            },
            {
              kind: 'p',
              text: r`{{#fig6}} 对有无这两样东西的四种模型重复了图 3c 的扫描（层数 {{exp.tied.depths}}），并记录初始模型给“当前这个词”的概率。{{exp.tied.verdict}}`,
              evidence: 'measured',
              evidenceNote: '引擎的 tied-output 实验（docs/experiments.md）',
            },
            { kind: 'figure', id: 'fig6' },
          ],
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'depth',
      title: '梯度在各层之间怎么分布',
      blocks: [
        {
          kind: 'p',
          text: r`定理 1 管的只有最后一层。论文在 3.3 节结尾提到，他们对其余各层做过一些初步分析，大意是：Post-LN 的梯度在靠近输出处大，往 $l$ 小的方向很可能逐层衰减；Pre-LN 的梯度很可能各层相差不大。措辞从定理 1 的“we prove”退到了“preliminary”和“likely”，看得出作者对这部分心里没那么有底。`,
          evidence: 'paper',
          evidenceNote: '第 6 页',
        },
        {
          kind: 'p',
          text: r`附录 F 的推理如下：梯度从输出退回第 $l$ 层，得穿过上面的 $L-l$ 层，每层里有两个 LN；FFN 后面那个 LN，入口处的长度平方为 $\tfrac32 d$，由引理 3，梯度每过它一次就要乘 $\sqrt{2/3}$，累计起来是一个指数衰减项 $(2/3)^{(L-l)/2}$。`,
        },
        {
          kind: 'p',
          text: r`这笔账少算了一项。梯度往下走时，除了 LN，还要穿过残差相加 $\role{in}{x}+\role{op}{F}(\role{in}{x})$ 的雅可比，也就是 $I+\partial \role{op}{F}/\partial \role{in}{x}$。前向时，FFN 支路把长度平方从 $d$ 抬到 $\tfrac32 d$，靠的是引理 1 那套账：乘一次随机矩阵，ReLU 砍掉一半。反向时梯度走的是同一条支路：乘的是同分布随机矩阵的转置，遇上的是同一张一半为零的 ReLU 掩码，长度平方同样涨成原来的 $\tfrac32$ 倍。`,
        },
        {
          kind: 'p',
          text: r`前向多出的那一份，正好被 LN 除掉；反向多出的那一份，又正好把 LN 除掉的补了回来。一层算下来：`,
        },
        {
          kind: 'math',
          tex: r`\tfrac32\times\tfrac23=1`,
        },
        {
          kind: 'p',
          text: r`没有衰减。其实论文的式 (62) 已经把这一项写进去了，只是做估计时只保留了 LN 那一项。所以按论文自己的理想化设定，初始化时 Post-LN 的梯度沿深度应当是平的。`,
        },
        {
          kind: 'p',
          text: r`我们量出来的也是平的：6 层的 $\role{param}{W^2}$ 梯度按论文的统计量依次是 {{post.w2.paper}}，每批范数都在 {{post.w2.batch.min}} 到 {{post.w2.batch.max}} 之间（图 3 左）。`,
          evidence: 'measured',
          evidenceNote: '图 3(a)',
        },
        {
          kind: 'p',
          text: r`这就和论文图 3(a)(b) 对不上了：那里的 Post-LN 从第 1 层的 0.13 一直涨到第 6 层的 1.65。`,
        },
        {
          kind: 'p',
          text: r`差异从哪来，单凭论文判断不了。论文用的是编码器、解码器各 6 层的结构，而图里标的第 1 到 6 层究竟属于哪一侧，文中没讲；如果是编码器，它的梯度还得经由解码器每一层的交叉注意力才能传回来；再加上真实数据、0.1 的 dropout、标签平滑，都和我们的玩具设定不一样。`,
          evidence: 'guess',
        },
        {
          kind: 'p',
          text: r`能确定的只有一点：附录 F 那个指数衰减的论证照原样是不成立的，图 3(a)(b) 里的逐层上升得另找解释。（下面的{{#fig11}} 在 {{exp.df.layers}} 层上把这两个因子分开测了出来。）`,
        },
        {
          kind: 'test',
          title: '附录 F 的衰减与残差的雅可比',
          blocks: [
            {
              kind: 'p',
              text: r`推断：附录 F 的 $(2/3)^{(L-l)/2}$ 只算了每次相加之后的 LN，没算残差相加的雅可比 $I+\partial \role{op}{F}/\partial \role{in}{x}$；梯度反向穿过 FFN 支路时长度涨 $\sqrt{3/2}$，正好补上 LN 除掉的那一份，所以初始化时 Post-LN 的梯度沿深度应该是平的。`,
              evidence: 'inferred',
            },
            {
              kind: 'p',
              text: r`{{#fig11}} 在 {{exp.df.layers}} 层上重做图 3a，附录 F 在这个深度预言第 1 层的梯度只有最后一层的 {{exp.df.rF}}；同时每个批次做一次反向传播，逐层测出梯度经过的两个因子：LN 的（残差和处的梯度比 LN 输出处的梯度）和残差雅可比的（子层输入处的梯度比残差和处的梯度）。{{exp.df.verdict}}`,
              evidence: 'measured',
              evidenceNote: '引擎的 depth-factors 实验（docs/experiments.md）',
            },
            { kind: 'figure', id: 'fig11' },
          ],
        },
        { kind: 'h3', text: 'Pre-LN 这边' },
        {
          kind: 'p',
          text: r`Pre-LN 这边，我们量到从最底层到最顶层降了 {{pre.w2.batch.ratio}} 倍（{{pre.w2.batch.first}} 降到 {{pre.w2.batch.last}}）；论文图 3(b) 是从 0.57 降到 0.30，约 1.9 倍。方向是一致的，但正文说各层差不多，图上却差了将近一倍。`,
          evidence: 'measured',
          evidenceNote: '图 3(a)',
        },
        {
          kind: 'p',
          text: r`原因还是出在残差相加的雅可比上。Pre-LN 的梯度每往下走一层，就多叠上一份来自支路的贡献；底层的残差流还细，支路门口那个 LN 的增益因而更大，于是越靠近输入，叠出来的梯度就越多。`,
        },
        { kind: 'h3', text: '参考代码' },
        {
          kind: 'p',
          text: r`上面所有实测数字都出自下面这段脚本；本页背后的引擎在同样的设定下计算同样的量。它按论文的表 1 和 3.3 节的初始化来写，图 3 的三幅子图都由它得出。`,
        },
        {
          kind: 'code',
          lang: 'python',
          caption: '测量的参考规格（非官方），PyTorch 实现',
          code: `# 按论文第 3 节和表 1 实现，非官方代码。只看初始化那一刻：Post-LN 和 Pre-LN 各层 W2 的梯度有多大。
import sys, json, torch, torch.nn as nn, torch.nn.functional as F
d, n, V, B = 512, 32, 1000, 8          # 宽度、序列长、词表、每批句数

class Layer(nn.Module):
    def __init__(s, pre):
        super().__init__()
        s.pre = pre
        s.Wq, s.Wk, s.Wv = (nn.Linear(d, d) for _ in range(3))
        s.W1, s.W2 = nn.Linear(d, 2 * d), nn.Linear(2 * d, d)   # IWSLT 配置：512 -> 1024 -> 512
        s.ln1, s.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        for m in (s.Wq, s.Wk, s.Wv, s.W1, s.W2):
            nn.init.xavier_normal_(m.weight); nn.init.zeros_(m.bias)   # 论文 3.3 节：Xavier，偏置为 0

    def attn(s, x):                                     # x: (B, n, d)
        a = s.Wq(x) @ s.Wk(x).transpose(1, 2) / d ** .5  # (B, n, n)；单头，和定理的设定一致
        return a.softmax(-1) @ s.Wv(x)

    def forward(s, x):
        ffn = lambda h: s.W2(F.relu(s.W1(h)))
        if s.pre:                                       # 表 1 右栏：LN 在残差支路里面，主干上只有加法
            x = x + s.attn(s.ln1(x))
            return x + ffn(s.ln2(x))
        x = s.ln1(x + s.attn(x))                        # 表 1 左栏：每次相加之后都过一次 LN
        s.x5 = x + ffn(x)                               # 引理 2 里的 x^{post,5}，留着看范数
        return s.ln2(s.x5)

class Net(nn.Module):
    def __init__(s, L, pre):
        super().__init__()
        s.E = nn.Parameter(torch.randn(V, d) / d ** .5)  # fairseq 的做法：嵌入按 N(0, 1/d) 初始化
        s.layers = nn.ModuleList(Layer(pre) for _ in range(L))
        s.final = nn.LayerNorm(d) if pre else nn.Identity()   # Pre-LN 多出来的最后一个 LN，梯度缩放全靠它

    def forward(s, tok, tgt):
        x, s.norms = s.E[tok] * d ** .5, []             # 输入再乘 sqrt(d)，和论文假设一致：|x0|^2 约等于 d
        for layer in s.layers:
            x = layer(x)
            h = x if layer.pre else layer.x5            # Post-LN 的 x_l 被 LN 钉在 d 上，看 x5 才有信息
            s.norms.append((h.pow(2).sum(-1).mean() / d).item())    # 引理 2 预测：Post 约 1.5，Pre 随层数线性涨
        logits = s.final(x) @ s.E.t()                   # 输出层和词嵌入共享；LN 之后 |h|^2 = d，logits 标准差约 1
        return F.cross_entropy(logits.reshape(-1, V), tgt.reshape(-1))

def grads(L, pre, batches=20):
    net = Net(L, pre)
    acc = [torch.zeros_like(l.W2.weight) for l in net.layers]; each = [0.] * len(net.layers)
    for _ in range(batches):                            # 论文 3.4 节的做法：先对各批的梯度取平均，再取 F 范数
        net.zero_grad()
        tok = torch.randint(V, (B, n)); tgt = (tok + 1) % V   # 目标有规律，平均梯度才不是纯噪声
        net(tok, tgt).backward()
        for k, l in enumerate(net.layers):
            acc[k] += l.W2.weight.grad / batches
            each[k] += l.W2.weight.grad.norm().item() / batches   # 定理 1 管的是这个：单批梯度的范数
    return [a.norm().item() for a in acc], net.norms, each

if __name__ == '__main__':                              # 每个配置 5 个种子，报均值和标准差
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
      title: '从梯度尺度到 Adam，中间还差一步',
      blocks: [
        {
          kind: 'p',
          text: r`到目前为止，整个论证都在比梯度的大小。可所有实验用的都是 Adam，而 Adam 的更新几乎不理会梯度有多大。`,
        },
        {
          kind: 'p',
          text: r`把 Adam 的第一步写出来：$m_1=(1-\beta_1)g$，$v_1=(1-\beta_2)g^2$；偏差校正之后 $\hat m_1=g$，$\hat v_1=g^2$。于是`,
        },
        {
          kind: 'math',
          tex: r`\Delta\role{param}{\theta}_1=-\mathrm{lr}\cdot\frac{\hat m_1}{\sqrt{\hat v_1}+\epsilon}=-\mathrm{lr}\cdot\frac{g}{|g|+\epsilon}\approx-\mathrm{lr}\cdot\mathrm{sign}(g)`,
        },
        {
          kind: 'p',
          text: r`每个坐标不多不少，恰好挪动 $\mathrm{lr}$。梯度是 1.6 也好，0.016 也好，第一步迈出的距离完全相同（论文取 $\epsilon=10^{-9}$，小到可以不计）。往后几步，只要梯度符号不来回翻转，$\hat m/\sqrt{\hat v}$ 也一直是 $O(1)$ 的量级。因此，定理 1 里两个界之间差的那个 $\sqrt L$，到了 Adam 手里并不会直接变成步长上的差别。“梯度大、学习率又大，所以不稳定”，严格讲只在 SGD 下说得通，而论文正文对这一层避而未谈。（下面的{{#fig7}} 测了它。）`,
          evidence: 'inferred',
          evidenceNote: 'Adam 的更新公式；第 4 页的优化器设定',
        },
        {
          kind: 'test',
          title: 'Adam 的头几步与梯度的尺度',
          blocks: [
            {
              kind: 'p',
              text: r`推断：Adam 的第一次更新不管梯度多大，都让每个坐标挪动约 $\mathrm{lr}$，之后 $\hat m/\sqrt{\hat v}$ 也保持在 1 的量级，所以 Post-LN 与 Pre-LN 梯度之间那个 $\sqrt L$ 的差距，并不是步长的差距。`,
              evidence: 'inferred',
            },
            {
              kind: 'p',
              text: r`{{#fig7}} 用下一节的玩具模型跑最初的若干步，两种放法各一次，每一步记录梯度范数，以及每个坐标的更新幅度除以学习率。第 1 步的梯度范数分别是 {{exp.afs.g1.post}}（Post-LN）和 {{exp.afs.g1.pre}}（Pre-LN），更新幅度分别是 lr 的 {{exp.afs.rms1.post}} 和 {{exp.afs.rms1.pre}} 倍。{{exp.afs.verdict}}`,
              evidence: 'measured',
              evidenceNote: '引擎的 adam-first-step 实验（docs/experiments.md）',
            },
            { kind: 'figure', id: 'fig7' },
          ],
        },
        {
          kind: 'p',
          text: r`那么 Pre-LN 的好处在 Adam 底下是怎么传过去的？换个空间来看。既然 Adam 让每个参数都走出大约 $\mathrm{lr}$ 的距离，决定稳不稳的，其实是这一步迈出去以后，网络的*输出*被改动了多少。Pre-LN 中，不论哪一层的参数动了，这个改动都得先经过末尾的 LN 才能传到输出；而引理 3 告诉我们，这个 LN 对前向的扰动和反向的梯度乘的是同一个 $\sqrt d/\lVert \role{in}{x_L}\rVert$。它在把梯度缩小 $\sqrt L$ 倍时，顺带把每次更新在输出端引起的变化也缩小了同样的倍数。所以论文的机制在 Adam 下依然成立，只不过该放在函数空间里讲，而不是梯度空间。（下面的{{#fig10}} 检验了这一点。）`,
          evidence: 'inferred',
        },
        {
          kind: 'test',
          title: '一次更新对输出的影响',
          blocks: [
            {
              kind: 'p',
              text: r`推断：在 Adam 下，机制要放到函数空间里讲；Pre-LN 的最后一个 LN 在缩小梯度的同时，也按同样的比例缩小了每次更新对输出的影响。`,
              evidence: 'inferred',
            },
            {
              kind: 'p',
              text: r`{{#fig10}} 把 Adam 的第一步当作初始化时的符号步 $\theta-\eta\,\mathrm{sign}(g)$，对深度测量损失最低的 $\eta$，以及只让一层走这一步时 logits 变化多少。{{exp.ss.verdict}}`,
              evidence: 'measured',
              evidenceNote: '引擎的 step-size 实验（docs/experiments.md）',
            },
            { kind: 'figure', id: 'fig10' },
          ],
        },
        {
          kind: 'p',
          text: r`Post-LN 一侧，Liu et al. 2020（Understanding the Difficulty of Training Transformers）测的恰好就是这个量：参数更新幅度相同的情况下，Post-LN 的输出变化随层数线性增长，Pre-LN 只按对数增长。他们把 Post-LN 的毛病归结为输出过分依赖各层的残差支路，参数上的小扰动会被一层层放大。这个解释与本文的结论相容，而且用不着在 Adam 那里绕一圈。（下面的{{#fig5}} 在玩具模型上测了它。）`,
        },
        {
          kind: 'test',
          title: '输出敏感度随深度',
          blocks: [
            {
              kind: 'p',
              text: r`论断（沿用 Liu et al. 2020）：更新幅度相同时，Post-LN 的输出随深度变化得越来越大，大致线性，Pre-LN 只大致按对数增长；Adam 的一次更新撞上的是这种敏感度，而不是梯度的大小。`,
              evidence: 'inferred',
            },
            {
              kind: 'p',
              text: r`{{#fig5}} 用本页的引擎测了它：下一节的玩具模型，初始化时，层数 {{exp.os.depths}}，每个权重挪动 $\delta=$ {{exp.os.delta}}，记录 logits 的均方变化。在双对数坐标里，$O(L)$ 是斜率 1。随机扰动下，Post-LN 的斜率是 {{exp.os.post}}，Pre-LN 是 {{exp.os.pre}}；Admin 的加权残差把 Post-LN 降到 {{exp.os.admin}}，DeepNorm 降到 {{exp.os.deepnorm}}。换成 Adam 的符号步 $\theta-\delta\,\mathrm{sign}(g)$——这才是 Adam 一次更新实际做的挪动——两者的斜率是 {{exp.os.sign.post}} 和 {{exp.os.sign.pre}}。{{exp.os.verdict}}`,
              evidence: 'measured',
              evidenceNote: '引擎的 output-sensitivity 实验（docs/experiments.md）',
            },
            { kind: 'figure', id: 'fig5' },
          ],
        },
        {
          kind: 'p',
          text: r`论文自己做的 RAdam 对照，也值得放到这个框架里重读一遍。图 4(a)(b) 中，RAdam 不预热也能把 Post-LN 训好（第 8 页原话：although RAdam trains the Post-LN Transformer well without the warm-up stage）。可见只要把 Adam 初期二阶矩估计方差过大的问题处理掉，光这一条就足以让 Post-LN 起死回生——这其实是在给 RAdam 那一派的解释提供证据。作者的读法却是：LN 位置的作用压过了优化器，理由是 Pre-LN 换成 RAdam 几乎看不出差别。`,
          evidence: 'inferred',
          evidenceNote: '图 2(a)、图 4(a)(b)',
        },
        {
          kind: 'p',
          text: r`两种读法放在一起，更说得通的图景是：训练失败要两个条件同时满足。一是早期的更新又大又乱，因为 Adam 的二阶矩还没估准；二是网络输出对参数扰动很敏感，就像 Post-LN 那样。去掉其中任何一个，训练都能往下走。`,
          evidence: 'inferred',
          evidenceNote: '图 2(a)、图 4(a)(b)',
        },
        {
          kind: 'callout',
          text: r`预热、RAdam、Pre-LN，是去掉其中一个条件的三种手段：预热让早期的更新变小，RAdam 压住早期二阶矩的噪声，Pre-LN 让输出对每一步更新不那么敏感。（下一节的{{#fig8}} 在玩具模型上检验了这一点。）`,
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'toy',
      title: '缩到玩具规模，现象还在',
      blocks: [
        {
          kind: 'p',
          text: r`把同一组对照缩小到 CPU 几分钟就能跑完的规模，现象照样出现。设定如下：8 层、$d=128$ 的因果语言模型，训练数据由一条人工构造的马尔可夫链生成；词表 256 个 token，每个 token 后面只可能接 4 种 token，所以最优损失是 $\ln 4\approx$ {{toy.opt}}。优化器与论文一致，用 Adam，$\beta=(0.9,0.98)$；训练 500 步，每个配置跑 2 个种子。`,
        },
        { kind: 'figure', id: 'fig4' },
        {
          kind: 'p',
          text: r`峰值取 $10^{-3}$ 时，不预热的 Post-LN 整整 500 步都卡着不动（最后停在 {{toy.post.w0.lo.final}}）。给它 300 步预热，它还是在同一个平台上一直待到第 {{toy.post.w300.lo.break}} 步前后，然后猛地往下掉，第 500 步落到 {{toy.post.w300.lo.final}}。不预热的 Pre-LN 到第 100 步已经降到 {{toy.pre.w0.lo.at100}}，第 500 步是 {{toy.pre.w0.lo.final}}。`,
          evidence: 'measured',
          evidenceNote: '玩具设定',
        },
        {
          kind: 'p',
          text: r`原文接着写道：把峰值提到 $3\times10^{-3}$，300 步预热也救不了 Post-LN，它的两条线都停在平台上。这和论文里预热 500 步、峰值 $10^{-3}$、BLEU 只剩 2.77 属于同一种情形。`,
          evidence: 'measured',
          evidenceNote: '原文作者的运行，玩具设定',
        },
        {
          kind: 'p',
          text: r`本页的引擎只复现了其中一半。不预热时，Post-LN 确实停在平台上（终点 {{toy.post.w0.hi.final}}，平台 {{toy.plateau}}）；预热 300 步时，它在第 {{toy.post.w300.hi.break}} 步前后离开平台，最后降到 {{toy.post.w300.hi.final}}。一个独立的 PyTorch 版玩具实验结果相同，另换四个种子、把预热拉长到 500 步也一样，所以我们如实报告这个差异，而不去调参把它凑出来；原文没有给出它的马尔可夫链、种子和批大小。Pre-LN 预热与否，都照常往下走（{{toy.pre.w0.hi.final}} 和 {{toy.pre.w300.hi.final}}）。`,
          evidence: 'measured',
          evidenceNote: '玩具设定',
        },
        {
          kind: 'p',
          text: r`上一节的解读——预热、RAdam、Pre-LN 各自去掉失败的两个条件之一——可以直接拿这个玩具来检验：下面的{{#fig8}} 用 Post-LN 和 Pre-LN，每次只用其中一种手段来训练它。`,
          evidence: 'inferred',
        },
        {
          kind: 'test',
          title: '预热去掉了什么',
          blocks: [
            {
              kind: 'p',
              text: r`推断：失败需要早期更新又大又乱，*并且*输出对这些更新敏感；预热、RAdam、Pre-LN 各自去掉一个条件，所以单独任何一个都该救回 Post-LN。至于论文的 SGD 对照，本文怀疑它说明不了多少，因为 SGD 本来就训练不好 Transformer。`,
              evidence: 'inferred',
            },
            {
              kind: 'p',
              text: r`{{#fig8}} 用这个玩具模型的快速预览设定（{{exp.wl.steps}} 步，两个种子），以 Post-LN 和 Pre-LN、Adam、RAdam 和带动量的 SGD、从不预热到预热 300 步分别训练，标出每条种子平均曲线离开平台的那一步。{{exp.wl.verdict}}{{exp.sgd.verdict}}`,
              evidence: 'measured',
              evidenceNote: '引擎的 warmup-length 实验（docs/experiments.md）',
            },
            { kind: 'figure', id: 'fig8' },
          ],
        },
        { kind: 'h3', text: '值得记住的两点' },
        {
          kind: 'p',
          text: r`比曲线本身更要紧的有两点。**其一，Post-LN 的失败不是发散。**没有出现 NaN，损失也没有炸开，模型只是趴在一个平台上不动。这个平台在 {{toy.plateau}}，比均匀乱猜的 $\ln 256=$ {{toy.lnV}} 略低一点，差不多就是只记住了每个 token 出现得多频繁、完全不看上下文时的损失（下面的{{#fig9}} 看了模型停在那里时内部的样子）。论文里的 BLEU 是 8.45 而不是 0，看上去也更像卡住了，而不是崩了。`,
        },
        {
          kind: 'p',
          text: r`**其二，这个小实验顺手补上了论文缺的那个对照的玩具版**（详见“纠缠在一起的变量”一节）：给 Pre-LN 加上预热，最后的损失与不加时相差无几（{{toy.pre.w300.lo.final}} 与 {{toy.pre.w0.lo.final}}），只不过要多走大约 {{toy.pre.delay}} 步才到。在这个规模上，预热没给 Pre-LN 带来任何好处，只多花了时间。`,
        },
        {
          kind: 'test',
          title: '平台由什么构成',
          blocks: [
            {
              kind: 'p',
              text: r`观察：不预热的 Post-LN 并不发散，而是停在一个只知道每个词出现频率的模型的损失上。若真如此，它的隐藏状态应当不再依赖于词本身：每个位置都带着同一个向量。`,
              evidence: 'measured',
            },
            {
              kind: 'p',
              text: r`{{#fig9}} 在图 4 的训练过程中，于一个固定批次上记录每层隐藏状态里词特异部分所占的份额 $s = 1-\lVert\text{mean}_t\,h_t\rVert^2/\text{mean}_t\lVert h_t\rVert^2$。{{exp.ps.verdict}}`,
              evidence: 'measured',
              evidenceNote: '引擎的 plateau-share 实验（docs/experiments.md）',
            },
            { kind: 'figure', id: 'fig9' },
          ],
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'experiments',
      title: '去掉预热的三组实验',
      blocks: [
        {
          kind: 'p',
          text: r`第 4 节把结论搬到三个任务上：IWSLT14 德英翻译、WMT 翻译，以及 BERT 预训练加下游微调。三组实验的设定差异比正文读起来要大，先用一张表摆出来。论文的原表出自第 7 页 4.1 节和附录 A；下表只收录本文提到过的设定，其余一律标“未说明”。`,
        },
        {
          kind: 'table',
          caption:
            '训练设定，据第 7 页 4.1 节与附录 A 整理。所有实验都用 Adam，β = (0.9, 0.98)。IWSLT 上每批 4096 个 token；论文的模型用了 0.1 的 dropout 和标签平滑。',
          head: ['任务', '摆法', '衰减方式', '峰值学习率', '预热', '运行次数'],
          rows: [
            ['IWSLT14 德英', 'Post-LN', '平方根倒数衰减', '5×10⁻⁴ 或 10⁻³', '4000 步（也试过 500 步）', '每条曲线 1 次'],
            ['IWSLT14 德英', 'Pre-LN', '阶梯衰减：第 8 个 epoch 乘 0.1', '未说明（35.5 BLEU 那组脚注配置为 7.5×10⁻⁴）', '无', '每条曲线 1 次'],
            ['WMT', 'Post-LN', '未说明', '未说明', '未说明', '每条曲线 1 次'],
            ['WMT', 'Pre-LN', '未说明', '未说明', '无', '每条曲线 1 次'],
            ['BERT', 'Post-LN', '未说明', '10⁻⁴（由 Pre-LN 是它的 3 倍推得；3×10⁻⁴ 时发散）', '1 万步', '预训练 1 次；微调每个检查点 6 个种子，95% 置信区间'],
            ['BERT', 'Pre-LN', '未说明', '3×10⁻⁴', '无', '预训练 1 次；微调每个检查点 6 个种子，95% 置信区间'],
          ],
        },
        {
          kind: 'p',
          text: r`结果可以归成三条。IWSLT 上，两种摆法最后都在 BLEU 34、验证损失 4 附近，Pre-LN 第 9 个 epoch 的检查点与 Post-LN 第 15 个 epoch 的相当。WMT 上的趋势相同。BERT 上，Pre-LN 的验证损失降得更快，下游的 MRPC 和 RTE 两个任务在每个检查点上也都更高。`,
          evidence: 'paper',
          evidenceNote: '图 4、图 5',
        },
        {
          kind: 'paperFigure',
          text: r`论文图 5 在第 8 页。(a) 是 BERT 预训练过程中的验证损失；(b)(c) 把每个检查点拿去微调，画出下游任务的准确率，误差棒由 6 个种子算出。另外留意 (a)： Pre-LN 的曲线在 80 万步左右就画到头了，Post-LN 则一直延伸到 100 万步。`,
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'reversed',
      title: '第 8 页上被写反的两个数',
      blocks: [
        {
          kind: 'p',
          text: r`第 8 页写道：Post-LN 在 50 万步时验证损失到了 1.69，Pre-LN 在 70 万步时达到相近的数值，据此得出 40% 的加速。照字面读，慢的反倒是 Pre-LN。`,
        },
        {
          kind: 'p',
          text: r`拿图 5(a) 核对一下：50 万步处，Pre-LN 约为 1.70，Post-LN 约为 1.75；Post-LN 要到 70 万步前后才降到 1.69。两个模型的名字被对调了，正确的说法是 Pre-LN 50 万步、Post-LN 70 万步，于是`,
          evidence: 'paper',
          evidenceNote: '第 8 页与图 5(a)',
        },
        {
          kind: 'math',
          tex: r`\frac{700}{500}=1.4`,
        },
        {
          kind: 'p',
          text: r`40% 就是这么来的。作者随后还指出，预热不过 1 万步，省下来的却是 20 万步，可见加速不只是少走了预热那一段。这个论证没问题——前提是把数字读对。`,
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'confounders',
      title: '纠缠在一起的变量',
      blocks: [
        { kind: 'h3', text: '学习率调度' },
        {
          kind: 'p',
          text: r`IWSLT 上，Pre-LN 用的是阶梯衰减，第 8 个 epoch 把学习率乘以 0.1；Post-LN 则按平方根的倒数衰减。学习率每被砍一刀，验证损失通常会跟着往下跳一截，而正文拿来比较的偏偏是 Pre-LN 第 9 个 epoch，也就是砍完之后的头一个检查点。“Pre-LN 收敛更快”里，多少归功于 LN 的位置、多少归功于那一刀，凭论文现有的实验拆不开。缺的对照是：Post-LN 预热之后，接上同样的阶梯衰减。`,
          evidence: 'inferred',
        },
        { kind: 'h3', text: '学习率大小' },
        {
          kind: 'p',
          text: r`BERT 上，Pre-LN 的峰值学习率是 Post-LN 的 3 倍。作者说也让 Post-LN 试过 $3\times10^{-4}$，结果发散了。这恰好是论文想证明的——Pre-LN 扛得住更大的学习率——所以这里的不对等是有意安排的，说得过去。只是没有交代 Post-LN 在 $3\times10^{-4}$ 下试的是多长的预热。`,
        },
        { kind: 'h3', text: '最要紧的那个对照' },
        {
          kind: 'p',
          text: r`通篇找不到一组“Pre-LN 加预热”。论文最核心的结论是 Pre-LN 可以放心地去掉预热；要撑起这句话，得证明去掉预热之后 Pre-LN 什么也没丢，也就是拿 Pre-LN 加预热和不加预热做对比。少了这一组，读者只知道 Pre-LN 不预热也训得动，却不知道预热对它是不是仍然有用。`,
          evidence: 'paper',
          evidenceNote: '第 7 页的实验设定中没有这一配置',
        },
        {
          kind: 'p',
          text: r`在前面的玩具实验中，预热对 Pre-LN 的唯一影响是让它推迟约 {{toy.pre.delay}} 步到达同一个终点；后来大模型的训练实践又从侧面给了一个回答，留到“Pre-LN 的代价”一节再说。`,
        },
        { kind: 'h3', text: '随机种子' },
        {
          kind: 'p',
          text: r`翻译和预训练的每一条曲线都只跑了一次。微调部分则做得扎实：每个检查点都用 6 个种子重复，并给出 95% 置信区间（附录 A.3），值得称道。IWSLT 上 BLEU 随种子的起伏一般在零点几，所以“两者相当”这个结论立得住，至于谁略高一点，就读不出来了。`,
        },
        { kind: 'h3', text: '一条脚注' },
        {
          kind: 'p',
          text: r`附录 A 的脚注里还藏着一个细节：Pre-LN 在 IWSLT 上的 35.5 BLEU 来自另一套配置——峰值 $7.5\times10^{-4}$，第 8000 步开始衰减，dropout 从 0.1 调到了 0.3。这个数和正文图 4 里的比较，并不是在同一设定下得到的。`,
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'timeline',
      title: '从初稿到定稿：一条推测的时间线',
      blocks: [
        {
          kind: 'callout',
          text: r`这一节是重构，不是记录。我们手上没有论文的任何草稿，下面只是把前面各节已经摆出来的线索，按工作最可能推进的顺序串起来；每一步都注明依据。`,
        },
        {
          kind: 'p',
          text: r`**1. 起点是一个谜。**IWSLT14 上，有没有预热决定了 BLEU 是 8.45 还是 34 左右；换成普通 SGD 也离不开预热，说明光怪 Adam 解释不了。`,
          evidence: 'inferred',
          evidenceNote: '第 4 页、图 2；第 4—5 页',
        },
        {
          kind: 'p',
          text: r`**2. 押注第 0 步。**预热只在早期起作用，于是去看初始化时的梯度；工具是他们从 Lu et al. 2019 起就熟悉的平均场方法，候选药方是 Tensor2Tensor 和 fairseq 里现成的 Pre-LN。`,
          evidence: 'inferred',
          evidenceNote: '引言与相关工作，第 2 页',
        },
        {
          kind: 'p',
          text: r`**3. 记账。**在三处简化之下，引理 1 到 3 给出残差流的长度和 LN 的雅可比，定理 1 再把它们拼成两个上界——只管最后一层。`,
          evidence: 'inferred',
          evidenceNote: '第 5 页、附录 E',
        },
        {
          kind: 'p',
          text: r`**4. 留有余地的推广。**其余各层在附录 F 里只有“初步”分析，结论用的是“likely”，没有证明。`,
          evidence: 'inferred',
          evidenceNote: '第 6 页、附录 F',
        },
        {
          kind: 'p',
          text: r`**5. 验证。**测量 6 到 14 层模型在初始化时的梯度（图 3），再做 RAdam 对照（图 4(a)(b)）。`,
          evidence: 'inferred',
          evidenceNote: '第 7—8 页',
        },
        {
          kind: 'p',
          text: r`**6. 收官。**在 IWSLT、WMT、BERT 上去掉预热，落到 BERT 加速 40% 这个结论——而报告它的那句话里，两个模型名恰好写反了。`,
          evidence: 'inferred',
          evidenceNote: '第 4 节、第 8 页、图 5(a)、附录 A',
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'cost',
      title: 'Pre-LN 的代价与后来的路',
      blocks: [
        {
          kind: 'p',
          text: r`Pre-LN 好训，但并非没有代价。主干的长度平方随深度线性增长，于是第 $l$ 层贡献给主干的那部分，在主干里只占约 $1/\sqrt l$ 的份额。网络一深，靠后的每一层对主干的相对改动都微乎其微，整个网络表现得更像一个更宽、更浅的网络。`,
        },
        {
          kind: 'p',
          text: r`苏剑林在《为什么Pre Norm的效果不如Post Norm》（科学空间，2022）里正是从这个角度，解释了一个大家反复碰到的现象：Post-LN 只要训得起来，最终效果往往比 Pre-LN 好。Liu et al. 2020 的实验也得出了同样的结论，他们提出的 Admin 初始化，就是想让 Post-LN 在稳定训练的同时保住效果。`,
        },
        {
          kind: 'p',
          text: r`2022 年的 DeepNet（Wang et al.，DeepNet: Scaling Transformers to 1,000 Layers）走得更远：它回到 Post-LN，每做一次残差相加，就把主干先乘上一个比 1 大的常数，再把支路的初始权重缩小；靠这种 DeepNorm，一口气训到了 1000 层。站在这篇论文的角度看，这等于在 Post-LN 里人为抬高主干在 LN 入口处的占比，从而压住每一层的更新对输出的影响——和 Pre-LN 最后那个 LN 做的事情，方向是一致的。`,
        },
        {
          kind: 'p',
          text: r`另一条线索来自大语言模型的训练实践。GPT-2、GPT-3、LLaMA 用的都是 Pre-LN（LLaMA 把 LN 换成了 RMSNorm），可没有一个去掉了预热：GPT-3 在最初 3.75 亿个 token 上线性预热，LLaMA 预热 2000 步。`,
        },
        {
          kind: 'p',
          text: r`原因不难想。动辄几十万步的训练里，两千步预热几乎不花什么成本，却能同时防住几种风险：早期二阶矩估不准、批量极大、训练初期的损失尖峰。这篇论文把预热从“非有不可”变成了“一份保险”，训练大模型的人则宁愿每次都掏钱买下这份保险。这也间接补上了前文提到的那组空缺：至少在大模型上，给 Pre-LN 加预热不会比不加更糟。`,
          evidence: 'inferred',
        },
      ],
    },
    // ─────────────────────────────────────────────────────────────────────────────────────────
    {
      id: 'lessons',
      title: '归一化层是一只尺度旋钮',
      blocks: [
        {
          kind: 'p',
          text: r`读完这篇论文，真正该记住的并非 Pre-LN 这个具体做法，而是藏在引理 3 里的一个视角：一个归一化层，对经过它的梯度和经过它的扰动一视同仁，都按“1 除以入口长度”同比例缩放。`,
        },
        {
          kind: 'p',
          text: r`所以要判断一个网络好不好训，不妨先去量一量每个归一化层入口处的长度。哪里的长度在不断增长，哪里又被一次次拉回原位，梯度的尺度、以及更新在函数空间里的尺度，就是在那里被改写的。这个看法对 BatchNorm、RMSNorm、QK-Norm 同样适用。`,
        },
        {
          kind: 'p',
          text: r`第二点关乎方法。理论部分只有上界；附录把结论推广到其他层时丢了一项；图 3 采用的统计量和定理所说的量也不完全是一回事。这些问题，用一份六十行的脚本，一分钟之内都能看出来。下次碰到谈初始化、谈训练稳定性的论文，不妨先动手把它的设定搭成一个能跑的小模型，把它所说的那个量直接打印出来——这往往比反复啃推导更快摸清它到底在什么范围内成立。`,
        },
        {
          kind: 'p',
          text: r`还有三个问题值得接着做：`,
        },
        {
          kind: 'list',
          ordered: true,
          items: [
            r`给定理 1 配一个下界，让“Post-LN 的梯度大”从上界之间的比较，变成一个真正的结论。`,
            r`在 Adam 的更新规则下把整套论证重做一遍：直接分析一步更新让输出变了多少，而不是梯度有多大。`,
            r`找到一种摆法，既有 Post-LN 的最终效果，又有 Pre-LN 的稳定性。DeepNorm 算是一个答案，但它的系数得按层数来定，离“拨一下开关就能用”还有一段距离。`,
          ],
        },
      ],
    },
  ],

  // ───────────────────────────────────────────────────────────────────────────────────────────
  figures: {
    fig1: {
      title: 'Post-LN 与 Pre-LN，各画一层',
      caption: r`上一行是 Post-LN，下一行是 Pre-LN，各自只画一层，$N\times$ 表示重复 $L$ 次。用下方的箭头，一步一个因子，把梯度从损失一路倒推回最后一层的 $\role{param}{W^2}$。点一下 Pre-LN 那个紫色的 Final LN，可以收起或展开它的内部。`,
      captionStatic: r`上一行是 Post-LN，下一行是 Pre-LN，各自只画一层，$N\times$ 表示重复 $L$ 次。图下的列表一步一个因子，把梯度从损失一路倒推回最后一层的 $\role{param}{W^2}$；启用 JavaScript 后，图会陪你一步步走。`,
      stepPrev: '上一步',
      stepNext: '下一步',
      stepReset: '从头再来',
      stepLabel: '第 {i} 步，共 {n} 步',
      postRow: 'Post-LN',
      preRow: 'Pre-LN',
      repeat: 'N×',
      finalLn: 'Final LN',
      expand: '展开内部',
      collapse: '收起',
      f_loss: r`损失：梯度从 logits 出发，等于 $\mathrm{softmax}(z)-\mathrm{onehot}(y)$，每个分量的绝对值都不超过 1。`,
      f_logits: r`输出层：logits 为 $z=hE^\top$，输出矩阵与词嵌入共享，所以梯度要乘上 $E$。`,
      f_finalLn: r`最后的 LN（Pre-LN）：梯度乘上 $\sqrt d/\lVert \role{in}{x_L}\rVert$（引理 3），6 层时为 {{pre.gain}}，模型越深越小。`,
      f_ln2: r`最后一层的第二个 LN（Post-LN）：梯度乘上 $\sqrt d/\lVert \role{in}{x^{\text{post},5}_L}\rVert\approx\sqrt{2/3}$（此处为 {{post.gain}}），与层数无关。`,
      f_residual: r`残差相加：梯度原样流进 FFN 支路（也继续沿主干往下），倍数为 1。`,
      f_w2: r`$\role{param}{W^2}$：元素 $(p,q)$ 的梯度，等于 FFN 输出第 $q$ 维上的梯度乘以第 $p$ 个隐藏单元 $\mathrm{ReLU}(\role{in}{x}\role{param}{W^1})_p$。定理 1 的三个因子在这里汇合。`,
      tableView: '以表格列出全部步骤',
    },
    fig2: {
      title: 'Pre-LN 的层叠与最后的 LN',
      caption: r`Pre-LN 的六层加上最后的 LN，自下而上叠放。在图上上下移动指针：选中的那一层会亮出轮廓，它上方的层随之抬起。读数行显示这一层输出处残差流的长度（实测），以及梯度经过最后那个 LN 时要乘的倍数。`,
      readoutLayer: '第 {l} 层',
      readoutNorm: '‖xₗ‖²/d = {v}',
      readoutGain: '最后 LN 的倍数 √d/‖x‖（第 L 层）= {g}',
      finalLn: '最后的 LN',
      hint: '在层叠上上下移动指针（或按方向键）来选一层。',
      readoutFinalOut: '输出 ‖·‖²/d = 1',
      'col.layer': '层',
      'col.norm2': '‖xₗ‖²/d（均值）',
      'col.std': '种子间标准差',
      'col.lo': '引理 2 下沿',
      'col.hi': '引理 2 上沿',
    },
    fig3: {
      title: '初始化时的梯度与残差流：实测',
      caption: r`最小实现的实测结果（$d=$ {{probe.d}}），{{probe.seeds}} 个种子取均值，(a) 附带 ±1 个标准差。**(a)** {{probe.layers}} 层模型每一层 $\role{param}{W^2}$ 的梯度，统计量与论文图 3(b) 相同：先把 {{probe.batches}} 批的梯度取平均，再求 F 范数；旁边同时给出每批范数。**(b)** 每层残差流的长度 $\lVert \role{in}{x_l}\rVert^2/d$，阴影标出引理 2 允许的范围。**(c)** 最后一层 $\role{param}{W^2}$ 的梯度随总层数（{{depth.min}} 到 {{depth.max}} 层，每个种子 {{probe.depth_batches}} 批）的变化：实线取各批梯度范数的均值，正是定理 1 约束的对象；虚线换成论文的统计量；点线则把 Pre-LN {{depth.min}} 层的值按 $1/\sqrt L$ 外推。`,
      panelA: '(a) 各层 W² 梯度，{layers} 层',
      panelB: '(b) 残差流长度',
      panelC: '(c) 最后一层 W² 梯度 vs 层数',
      axisLayer: '层号 l',
      axisGrad: '‖∂ℒ/∂W²‖（F 范数）',
      axisNorm: '‖xₗ‖²/d',
      axisDepth: '总层数 L',
      band: '引理 2 区间',
      perBatch: '每批范数的平均（定理 1）',
      paperStat: '批平均梯度的范数（论文）',
      extrapolation: 'Pre-LN {L0} 层值 × √({L0}/L)',
      'stat.label': '统计量',
      'ctl.seeds': '种子数',
      'ctl.batches': '批数',
      'ctl.depths': '层数',
      'ctl.small': '小配置，快（d=64）',
      'err.seeds': '种子数须为 1 到 5 的整数',
      'err.batches': '批数须为 1 到 20 的整数',
      'err.depths': '至少选一个层数',
      'ctl.model': '模型（留空：所画探针的；勾选小配置时为小配置的）',
      'ctl.layers': '图 (a)(b) 的层数 L',
      'ctl.d': '宽度 d',
      'ctl.d_ff': 'FFN 宽度 d_ff',
      'ctl.batch': '批大小 B',
      'ctl.seq': '序列长度 n',
      'err.layers': '层数须为 {min} 到 {max} 的整数',
      'err.d': 'd 须为 {min} 到 {max} 的整数',
      'err.d_ff': 'd_ff 须为 {min} 到 {max} 的整数',
      'err.batch': '批大小须为 {min} 到 {max} 的整数',
      'err.seq': '序列长度须为 {min} 到 {max} 的整数',
      'err.memory': '这次探针中最深的模型超出了引擎每次运行 1 GiB 的内存：请调低最大层数、层数、d、d_ff、批大小或序列长度',
      readoutA: '第 {l} 层：{values}',
      'readoutA.item': '{name} {v} ± {sd}',
      readoutB: '第 {l} 层：{values}（引理 2：{lo}–{hi}）',
      'readoutB.item': '{name} {v}',
      readoutC: 'L = {L}：{values}（每批 / 论文），1/√L：{extrap}',
      'readoutC.item': '{name} {v} / {paper}',
      'col.layer': '层',
      'col.depth': 'L',
    },
    fig4: {
      title: '玩具规模上的预热',
      caption: r`{{toy.model}}用 {{toy.optimizer}} 训练时的损失曲线，每条是各个种子的均值（这里每条 {{toy.seeds}} 个种子）。颜色表示 LayerNorm 放在哪里；线型表示预热步数（实线为不预热；这里画出的是 {{toy.warmups}}）。点线是最优损失 $\ln 4$。每个峰值学习率一幅子图（这里是 {{toy.lrs}}；原文用 Adam，预热 0 与 300 步，峰值 $10^{-3}$ 和 $3\times10^{-3}$）。数字只作示意。（原脚本为 train_toy.py；本页的这些运行由页面自带的引擎完成。）`,
      axisStep: '步数',
      axisLoss: '训练损失',
      noWarmup: '不预热',
      warmup: '预热 {w} 步',
      lnOpt: '最优 ln 4',
      plateau: '平台',
      seedsHint: '每条线是 {n} 个种子的平均。',
      seedsHintOne: '每条线是一个种子。',
      seedsHintRuns: '每条线是所属那次运行各种子的平均；种子数见图例。',
      axisOnPlateau: '仍在平台',
      shareHint: '每幅子图下方：每条线的种子中，各步仍停在平台上的比例（某个种子的损失一旦低于平台 {drop}，就算离开了平台）。',
      'fact.seeds': '{n} 个种子',
      'fact.seedsOne': '1 个种子',
      'fact.steps': '{n} 步',
      diverged: '第 {s} 步发散',
      panel: '峰值学习率 {lr}',
      'ref.uniform': 'ln 256（均匀）',
      'ctl.placements': '放法',
      'ctl.lrs': '峰值学习率',
      'ctl.warmups': '预热步数',
      'ctl.warmupShape': '预热形状',
      'ctl.seeds': '种子数',
      'ctl.steps': '步数',
      'ctl.optimizer': '优化器',
      lrHint: '用这个优化器时，玩具模型能学起来的峰值学习率：{lr}',
      'err.lrs': '1 到 {count} 个学习率，取值在 {range} 内，用逗号分隔',
      'err.warmups': '1 到 {count} 个预热长度，{range} 内的整数',
      'err.warmupShape': '直线或半余弦两种之一',
      'err.seeds': '种子数须为 1 到 {max} 的整数',
      'err.steps': '步数须为 {min} 到 {max} 的整数',
      'err.optimizer': '须为引擎提供的优化器之一',
      'err.hyper': '须为所示范围内的数（留空即引擎默认值）',
      'err.placements': '至少勾选一种放法',
      'err.runs': '运行太多：放法数 × 峰值学习率数 × 预热长度数 × 种子数至多为 {max}；少勾一种放法或减少种子',
      'ctl.model': '模型（留空：文中的）',
      'ctl.layers': '层数 L',
      'ctl.d': '宽度 d',
      'ctl.d_ff': 'FFN 宽度 d_ff',
      'ctl.batch': '批大小 B',
      'ctl.seq': '序列长度 n',
      'err.layers': '层数须为 {min} 到 {max} 的整数',
      'err.d': 'd 须为 {min} 到 {max} 的整数',
      'err.d_ff': 'd_ff 须为 {min} 到 {max} 的整数',
      'err.batch': '批大小须为 {min} 到 {max} 的整数',
      'err.seq': '序列长度须为 {min} 到 {max} 的整数',
      'err.memory': '这个模型超出了引擎每次运行 1 GiB 的内存：请调低层数、d、d_ff、批大小或序列长度',
      'err.gridMemory': '这些运行合起来超出了引擎给一组运行的 1.5 GiB 内存（它同时保存每次运行的权重、梯度和优化器状态）：请减少运行次数，或调低层数、d、d_ff',
      'ctl.arch': '结构（不改则同所画结果）',
      'ctl.norm_type': '归一化',
      'ctl.final_norm': '最后的归一化',
      'ctl.output': '输出层',
      'ctl.input_scale': '输入',
      'err.choice': '不是这项设置的可选值之一（实时运行的设置里列出了它们）',
      'warn.warmup': '有一个预热比整次运行还长：它的学习率永远到不了峰值',
      'preset.quick': '快速一看（约一分钟）：三条玩具论断都成立的最便宜设置',
      'preset.full': '完整：文中的设置',
      'preset.label': '预设',
      'preset.deepnorm': 'DeepNorm 不预热，与 Post-LN 对照',
      'preset.preHighLr': 'Pre-LN 高峰值学习率，预热与不预热',
      readout: '第 {step} 步，峰值学习率 {lr}：{values}',
      reference: '参考',
      referenceMuted: '参考（在你的运行之下变淡）',
      'col.run': '运行',
      'col.norm': '摆法',
      'col.warmup': '预热',
      'col.lr': '峰值学习率',
      'col.status': '状态',
      'col.at': '第 {s} 步损失',
    },
    fig5: {
      title: '每个权重都动一点，输出动多少',
      caption: r`初始化时，每个权重挪动 $\delta=$ {{exp.os.delta}} 后，一个玩具批次的 logits 的均方变化，对层数 $L$ 作图；双对数坐标，对种子取平均，每种放法一种颜色。虚线：过 Post-LN 第一个点的 $O(L)$；点线：过 Pre-LN 第一个点的 $O(\log L)$。开关在随机方向和 Adam 的符号步之间切换。`,
      panel: 'logits 的变化随深度',
      axisDepth: '层数 L',
      axisSens: 'logits 的均方变化',
      guideLinear: 'O(L)',
      guideLog: 'O(log L)',
      'kind.label': '扰动',
      'kind.random': '随机，δ·N(0, 1)',
      'kind.sign': 'Adam 的符号步，−δ·sign(g)',
      readout: 'L = {L}：{values}',
      'readout.item': '{name} {v}',
      'col.depth': 'L',
      'col.slope': '双对数斜率',
      'ctl.small': '仍看得出效应的快速设定（深度 {depths}，{seeds} 个种子：几秒）',
    },
    fig6: {
      title: '共享的词嵌入与 Pre-LN 梯度的下降',
      caption: r`对四种模型之一重复图 3c 的扫描：输出层与词嵌入共享或用自己的矩阵，输入为 $\sqrt d\cdot E[\text{tok}]$ 或 $E[\text{tok}]$（共享加 $\sqrt d$ 就是文中的模型，也就是图 3c）。**(a)** 最后一层 $\role{param}{W^2}$ 的梯度对总层数（逐批统计量，对种子取平均）；点线：Pre-LN 的第一个值按 $1/\sqrt L$ 外推。**(b)** 初始模型给当前这个词的平均概率（对数坐标）；虚线：均匀分布 $1/V$。`,
      panelA: '(a) 最后一层 W² 的梯度',
      panelB: '(b) 当前这个词的概率',
      axisDepth: '层数 L',
      axisGrad: '‖∂ℒ/∂W²‖（逐批）',
      axisP: 'p（当前这个词）',
      extrapolation: 'Pre-LN × 1/√L',
      uniform: '均匀 1/V',
      'output.label': '输出层',
      'output.tied': '与词嵌入共享',
      'output.untied': '自己的矩阵',
      'input.label': '输入',
      'input.sqrt_d': '√d·E[词]',
      'input.none': 'E[词]',
      readout: 'L = {L}：梯度 {values}；p（当前词）{p}',
      'readout.item': '{name} {v}',
      'col.variant': '模型',
      'col.slope': 'Pre-LN 的双对数斜率（−0.5 即 1/√L）',
      'ctl.small': '仍看得出效应的快速设定（d = {d}，深度 {depths}，{seeds} 个种子：几秒）',
    },
    fig7: {
      title: 'Adam 的头几步与梯度的尺度',
      caption: r`图 4 的玩具模型，用 Adam 训练，峰值学习率 {{exp.afs.lr}}，不预热，每种放法一种颜色。**(a)** 每一步的梯度范数 $\lVert g_t\rVert$。**(b)** 更新在所有坐标上的均方根除以该步的学习率：等于 1（点线）表示每个坐标都挪动了 $\mathrm{lr}$。`,
      panelA: '(a) 梯度范数',
      panelB: '(b) 每个坐标的更新 / lr',
      axisStep: '步',
      axisGrad: '‖g‖',
      axisRms: 'RMS(Δθ) / lr',
      refLr: '每个坐标挪动 lr',
      readout: '第 {t} 步：‖g‖ {grad}；更新 / lr {rms}',
      'readout.item': '{name} {v}',
      'col.step': '步',
      'ctl.small': '仍看得出效应的快速设定（{layers} 层，d = {d}，{steps} 步：几秒）',
    },
    fig8: {
      title: 'Post-LN 何时离开平台，对预热长度',
      caption: r`玩具模型的种子平均损失（10 步均值）第一次比平台低 0.5 的那一步，对预热长度作图；颜色：放法，线型：优化器（Adam 实线，RAdam 虚线，带动量的 SGD 点线），各用其建议的峰值学习率或三倍（开关）。顶线上的标记：在 {{exp.wl.steps}} 步内始终没有离开平台。`,
      panel: '离开平台',
      axisWarmup: '预热步数（平方根刻度）',
      axisEscape: '离开平台的步',
      never: '从未',
      'lr.label': '峰值学习率',
      'lr.lo': '各优化器的建议值',
      'lr.hi': '其三倍',
      series: '{placement} · {optimizer} · {lr}',
      readout: '预热 {w}：{values}',
      'readout.item': '{name} {v}',
      'col.series': '运行',
      'ctl.small':
        '仍看得出两个效应的快速设定（{layers} 层，d = {d}，{steps} 步，{seeds} 个种子，各优化器用各自的建议学习率；两种设定在这里各要多久，看“在浏览器里重新计算”按钮）',
    },
    fig9: {
      title: '训练中隐藏状态的词特异份额',
      caption: r`图 4 的模型（Adam，峰值学习率 $10^{-3}$，一个种子）的每次运行中，固定批次上每层隐藏状态里因词而异的份额，对训练步作图；颜色越浓越因词而异（每种放法一种颜色）。整列都淡，表示每个词都带着同一个向量。`,
      panel: '{placement}，预热 {warmup}',
      axisStep: '步',
      axisLayer: '层',
      scale: '词特异份额，0 → 1',
      readout: '第 {step} 步，第 {layer} 层：{values}',
      'readout.item': '{name} {v}',
      'ctl.small': '仍看得出效应的快速设定（{layers} 层，d = {d}，{steps} 步：几秒）',
    },
    fig10: {
      title: '函数空间里的 Adam 第一步，对深度',
      caption: r`初始化时，玩具模型在一个批次上的梯度 $g$ 与符号步 $\theta-\eta\,\mathrm{sign}(g)$，即学习率为 $\eta$ 的 Adam 第一步；每种放法一种颜色，对种子取平均，双对数坐标。**(a)** $\eta^*$：这个批次上损失最低的步长。**(b)** 只让一层走这一步时 logits 的均方变化，对各层取平均。`,
      panelA: '(a) 最佳符号步长 η*',
      panelB: '(b) 单层对 logits 的影响',
      axisDepth: '层数 L',
      axisEta: 'η*',
      axisLayer: '平均 ‖Δlogits‖²',
      readout: 'L = {L}：η* {eta}；单层影响 {layer}',
      'readout.item': '{name} {v}',
      'ctl.small': '仍看得出效应的快速设定（深度 {depths}，{seeds} 个种子：几秒）',
    },
    fig11: {
      title: '附录 F 的衰减与残差的雅可比',
      caption: r`初始化时，探针模型取所画那次运行的深度 $L$（对它的种子取平均）。**(a)** 这个深度上的图 3a：各层 $\role{param}{W^2}$ 的梯度（每批统计量，对数坐标）；虚线是附录 F 对所选放法的预言，即最后一层的值乘以 $(2/3)^{(L-l)/2}$。**(b)** 对所选放法，梯度向下穿过第 $l$ 层时范数变化的倍数：经过该层的 LN（每次相加之后的）、经过残差雅可比 $I+\partial \role{op}{F}/\partial \role{in}{x}$，以及整层；点线是 1（平），虚线是附录 F 的 $\sqrt{2/3}$。`,
      panelA: '(a) 各层 W² 梯度与附录 F 的衰减',
      panelB: '(b) 每层作用在梯度上的因子：{placement}',
      axisLayer: '第 l 层',
      axisGrad: '‖∇W²‖',
      axisFactor: '倍数',
      appendixF: '附录 F 的预言',
      'factor.norm': 'LN',
      'factor.residual': '残差雅可比',
      'factor.layer': '整层',
      'guide.flat': '平：1',
      'guide.appendixF': '附录 F：√(2/3)',
      'placement.label': '(b) 图与预言所用的放法',
      readout: '第 {layer} 层：W² 梯度 {values}；因子 {factors}',
      'readout.item': '{name} {v}',
      'ctl.small': '仍看得出效应的快速设定（{layers} 层，d = {d}，{seeds} 个种子：几秒）',
    },
  },
};

export default article;
