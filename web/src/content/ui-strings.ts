// ui-strings.ts — the page chrome's strings (buttons, badges, progress, the URL banner, the Share
// panel, the engine line, the citation block…) in each language. The one place they are written:
// the articles (zh.ts, en.ts) hold the prose and each figure's own strings (`figures.figN`), not
// these. They are here, not in the lazily loaded articles, so that the toolbar and the error lines
// have their words before (or without) an article.
// Looked up by lib/text.ts `uiString` (a missing key shows as its name); templates use {name}
// placeholders filled by `tpl`. Every key is listed in ui-keys.md next to this file (checked by
// tests/unit/content.test.ts, which also checks that both languages have the same keys).
import type { Lang } from './types';

export const UI_STRINGS: Record<Lang, Record<string, string>> = {
  en: {
    'lang.label': 'Language',
    'langToggle': '中文',
    'themeToggle': 'Switch light / dark theme',
    'contents': 'Contents',
    'figureLabel': 'Figure {n}',
    'copyLink': 'Copy link to this section',
    'linkCopied': 'Link copied',
    'theme.toDark': 'Dark',
    'theme.toLight': 'Light',
    'precomputed': 'Precomputed by the same engine (v{version}, {date})',
    'live': 'Computed in your browser',
    'threads': '{n} threads',
    'singleThread': 'single thread',
    'badge.none': 'no result yet',
    'recompute': 'Recompute in your browser',
    'cancel': 'Cancel',
    'progress': '{pct}% · about {eta} left',
    'run.starting': 'Starting the engine…',
    'run.paused': 'Paused while this tab is hidden',
    'cancelled': 'Cancelled.',
    'error': 'The computation failed.',
    'run.kept': 'Still showing the last complete result.',
    'run.identical': 'Identical to the precomputed result, to the last bit: the same engine gave the same numbers on this machine.',
    'run.estimate': '(about {eta} here)',
    'run.estimate.short': '(under a second here)',
    'run.offered': 'The link asks for a live run of about {eta} here, longer than a link starts by itself. Its settings are filled in: press Recompute to run it.',
    'run.differs': 'Differs from the precomputed result in {count} numbers, by at most {rel} (relative).',
    'run.nan': 'Some runs diverged (the loss blew up or stopped being a number); each is marked at the step where it stopped and not drawn past it.',
    'run.settings': 'Settings for a live run',
    'run.shared': 'Figures 2 and 3 share this computation.',
    'loading': 'Loading…',
    'state.missing': 'The precomputed results could not be loaded ({message}). Recompute them in your browser.',
    'tableView': 'Show as table',
    'chartView': 'Show as chart',
    'paperFigureLabel': 'In the paper',
    'optimizer.adam': 'Adam',
    'optimizer.sgd': 'SGD with momentum',
    'optimizer.radam': 'RAdam',
    'verdict.os.confirmed':
      'Verdict: confirmed. Post-LN’s output change grows about linearly with depth (slope {post}), Pre-LN’s far more slowly (slope {pre}), for a random perturbation and for Adam’s sign step alike.',
    'verdict.os.qualified':
      'Verdict: holds for random directions only. For a random perturbation Post-LN’s output change grows about linearly with depth (slope {post}) and Pre-LN’s slowly (slope {pre}; Admin {admin}). Under Adam’s sign step, the perturbation an Adam update actually makes, Pre-LN’s grows with depth as fast as Post-LN’s or faster (slope {signPre}, Post-LN {signPost}).',
    'verdict.os.refuted':
      'Verdict: not confirmed at this setting. The slopes are {post} for Post-LN and {pre} for Pre-LN (Admin {admin}); the rule asks for at least 0.75 and at most 0.6.',
    'verdict.tied.confirmed':
      'Verdict: supported. With the output tied to the embedding and the √d input scale (the article’s model), Pre-LN’s last-layer gradient falls with slope {tiedSqrt} on log–log axes, much faster than 1/√L (slope −0.5). Remove either ingredient and it falls about as 1/√L: {tiedNone} without √d, {untiedSqrt} untied, {untiedNone} with neither. The article’s model also starts out predicting the current token (probability {pCurrent} from the shallowest to the deepest model), which the deeper trunk dilutes.',
    'verdict.tied.refuted':
      'Verdict: not supported at this setting. Pre-LN’s slopes are {tiedSqrt} for the article’s model (tied, √d), and {tiedNone}, {untiedSqrt}, {untiedNone} without √d, untied, or with neither; the rule asks for below −0.75 for the first and −0.5 ± 0.25 for the others.',
    'verdict.afs.confirmed':
      'Verdict: confirmed. Step 1 moves every coordinate by about lr (update RMS / lr {rms1}) although the gradient norms differ {gradGap}-fold, and the update sizes stay within 1.5× of each other up to step {T} ({rmsT}).',
    'verdict.afs.qualified':
      'Verdict: holds for the first steps only. Step 1 moves every coordinate by about lr (update RMS / lr {rms1}) although the gradient norms differ {gradGap}-fold; but by step {T} the update sizes differ {laterGap}-fold ({rmsT}): Adam equalises the first step, not the run.',
    'verdict.afs.refuted':
      'Verdict: not confirmed at this setting. Step 1’s update RMS / lr is {rms1}; the rule asks for 1 ± 5% in every placement.',
    'verdict.afs.untested':
      'Verdict: not decided at this setting. The gradient norms at step 1 differ only {gradGap}-fold, so there is no scale for Adam to hide.',
    'verdict.wl.confirmed':
      'Verdict: confirmed at peak lr {lr}. Post-LN with Adam and no warm-up never leaves the plateau, and each remedy alone gets it off: a warm-up of {firstWarmupThatEscapes} steps, RAdam without warm-up (step {postRadam0}), Pre-LN without warm-up (step {preAdam0}). At peak lr {lrHi} RAdam without warm-up escapes at step {postRadam0Hi} and the shortest warm-up that rescues Post-LN with Adam is {firstWarmupThatEscapesHi} steps (— = never, none).',
    'verdict.wl.refuted':
      'Verdict: not confirmed at peak lr {lr}. A remedy does not get Post-LN off the plateau: shortest rescuing warm-up {firstWarmupThatEscapes}, RAdam without warm-up {postRadam0}, Pre-LN without warm-up {preAdam0} (— = never).',
    'verdict.wl.untested':
      'Verdict: not decided at this setting. Post-LN with Adam leaves the plateau without warm-up too, so there is no failure to remove.',
    'verdict.sgd.refuted':
      'The SGD control: with SGD and momentum at peak lr {lr}, Pre-LN trains without warm-up (it leaves the plateau at step {pre0}) while Post-LN stalls without warm-up and needs one of {firstWarmupThatEscapes} steps. In the toy the paper’s control shows what it claims; the doubt about it is refuted here.',
    'verdict.sgd.confirmed':
      'The SGD control: Pre-LN does not train with SGD either (peak lr {lr}), so the control says little about warm-up; the doubt about it is confirmed here.',
    'verdict.sgd.qualified':
      'The SGD control: Pre-LN trains with SGD (peak lr {lr}), but no warm-up tried rescues Post-LN; the control holds only in part.',
    'verdict.sgd.untested':
      'The SGD control is not decided at this setting (no SGD runs, or Post-LN with SGD leaves the plateau without warm-up).',
    'verdict.ps.confirmed':
      'Verdict: confirmed. The Post-LN run without warm-up ends on the plateau (loss {endLoss}; the plateau is {plateau}) without diverging, and its last layer’s token-specific share falls from {share0} to {shareEnd}: every token ends up carrying the same vector, all a model needs to predict the frequencies alone.',
    'verdict.ps.refuted':
      'Verdict: not confirmed at this setting. The Post-LN run without warm-up ends on the plateau (loss {endLoss}), but its last layer’s token-specific share goes from {share0} to {shareEnd}, not below half.',
    'verdict.ps.untested':
      'Verdict: not decided at this setting. The Post-LN run without warm-up leaves the plateau or stops (loss {endLoss}, status {status}), so there is no stall to look into.',
    'verdict.ss.confirmed':
      'Verdict: confirmed. Relative to Post-LN’s, the effect of one Pre-LN layer’s update on the logits falls from {rFirst} to {rLast} of it between the shallowest and the deepest model, and Pre-LN’s best sign step η* does not shrink with depth ({etaPre}).',
    'verdict.ss.qualified':
      'Verdict: holds only in part. Relative to Post-LN’s, the effect of one Pre-LN layer’s update on the logits falls from {rFirst} to {rLast} of it between the shallowest and the deepest model, as the damping predicts; but Pre-LN’s best whole-model sign step η* shrinks with depth all the same ({etaPre}), so the damping does not let a deep Pre-LN model take larger Adam steps.',
    'verdict.ss.refuted':
      'Verdict: not confirmed at this setting. Relative to Post-LN’s, one Pre-LN layer’s effect on the logits goes from {rFirst} to {rLast} of it between the shallowest and the deepest model; the rule asks for it to halve.',
    'verdict.df.confirmed':
      'Verdict: confirmed. At {L} layers Post-LN’s W² gradient is flat, not Appendix F’s decay: layer 1 gets {r} of the last layer’s, and every layer lies between {w2Min} and {w2Max}. Crossing a layer, the gradient is multiplied by {normFactor} in its norms and by {residualFactor} in its residual Jacobians, {factor} in all. The FFN sublayer alone shows the article’s numbers: {ffnNorm} for its LN (√(2/3) = 0.82) and {ffnResidual} for its residual branch (√(3/2) = 1.22).',
    'verdict.df.qualified':
      'Verdict: holds only in part. At {L} layers Post-LN’s W² gradient is flat (layer 1 gets {r} of the last layer’s), but not because the residual Jacobian gives back what the norms take: per layer the norms multiply the gradient by {normFactor}, the residual Jacobians by {residualFactor}.',
    'verdict.df.refuted':
      'Verdict: refuted at this setting. At {L} layers Post-LN’s W² gradient at layer 1 is {r} of the last layer’s, at least as close to Appendix F’s decay as to flat; per layer the norms multiply the gradient by {normFactor}, the residual Jacobians by {residualFactor}.',
    'sep.colon': ': ',
    'sep.list': ', ',
    'engine.line': '{label}: {engine}. {why}',
    'engine.label': 'Engine',
    'engine.webgpu': 'WebGPU on {detail}',
    'engine.cpu-mt': 'the threaded CPU engine (WebAssembly, {threads} threads)',
    'engine.cpu-st': 'the single-threaded CPU engine (WebAssembly)',
    'engine.why.ready': 'Its start-up self-test matched the CPU engine.',
    'engine.why.override-cpu': 'Chosen with ?backend=cpu.',
    'engine.why.forced': 'Kept because of ?backend=webgpu although its self-test failed ({detail}).',
    'engine.why.unsupported': 'This browser has no WebGPU.',
    'engine.why.no-adapter': 'No WebGPU adapter is available.',
    'engine.why.software': 'The only WebGPU adapter ({detail}) is a software one, slower than the CPU engine.',
    'engine.why.device-failed': 'The WebGPU device could not be created ({detail}).',
    'engine.why.self-test-failed': 'The WebGPU self-test did not match the CPU engine ({detail}).',
    'engine.why.skipped': '',
    'engine.why.gpu-failed': 'The GPU failed during a run ({detail}), so the run restarted on the CPU.',
    'engine.asked': '?backend=webgpu was asked for, but:',
    'engine.noIsolation': 'The page is not cross-origin isolated, so it cannot use threads.',
    'footer': 'All numbers on this page are measured by the ln-explorable engine, in your browser or precomputed by the same code.',
    'share': 'Share',
    'share.label': 'Share or download this figure',
    'share.link': 'Link to this view',
    'share.copy': 'Copy',
    'share.embed': 'Embed on your page',
    'share.embedCopied': 'Embed code copied',
    'share.copyFailed': 'Could not copy: the text is selected, press Ctrl+C / ⌘C.',
    'share.download': 'Download',
    'share.svg': 'SVG: the figure as drawn, with provenance',
    'share.png': 'PNG (2×): the figure as drawn, with provenance',
    'share.csv': 'CSV: the numbers behind the figure, with provenance',
    'share.json': 'JSON: the numbers behind the figure, with provenance',
    'share.preparing': 'Preparing the download…',
    'share.downloaded': '{kind} saved.',
    'share.exportFailed': 'Could not export:',
    'url.head': 'Some settings in this link could not be used. Everything else is shown as linked.',
    'url.issue.invalid': '“{param}={value}”: {reason}. Showing the default instead.',
    'url.issue.unknown': '“{param}” is not a setting of this page; ignored.',
    'url.issue.duplicate': '“{param}” is given more than once ({value}); showing the default.',
    'url.dismiss': 'Dismiss',
    'url.lang': 'the language must be zh or en',
    'url.theme': 'the theme must be light or dark',
    'url.embed': 'the figure to embed must be one of {figures}',
    'url.fig1.step': 'the step must be an integer from 1 to 6',
    'url.fig1.ln': 'the Final LN must be open or closed',
    'url.fig2.layer': 'the layer must be an integer from 1 to 6, or final',
    'url.fig5.perturbation': 'the perturbation must be random or sign',
    'url.fig6.output': 'the output layer must be tied or untied',
    'url.fig6.input': 'the input scale must be sqrt_d or none',
    'url.fig11.placement': 'the placement must be one the engine knows: {placements}',
    'url.fig8.lr': 'the lr must be low or high',
    'url.fig3.stat': 'the statistic must be paper or batch',
    'url.fig3.model': 'the model must be full or small',
    'url.fig3.depths': 'one to 16 depths, integers from 1 to 48, comma-separated',
    'url.tooLong': 'the value is longer than 200 characters',
    'url.unknown': 'not a setting of this page',
    'url.duplicate': 'given more than once',
    'cite.title': 'Cite this page',
    'cite.explainer': 'This explainer',
    'cite.paper': 'The paper: Xiong et al. 2020 (ICML)',
    'cite.copy': 'Copy BibTeX',
    'cite.copied': 'Copied',
    'embed.credit': 'From “{title}”: open the full article',
    'offline.ready': 'This page is saved for offline reading.',
  },
  zh: {
    'lang.label': '语言',
    'langToggle': 'English',
    'themeToggle': '切换浅色 / 深色',
    'contents': '目录',
    'figureLabel': '图 {n}',
    'copyLink': '复制本节链接',
    'linkCopied': '链接已复制',
    'theme.toDark': '深色',
    'theme.toLight': '浅色',
    'precomputed': '由同一引擎预先算好（v{version}，{date}）',
    'live': '在你的浏览器里算出',
    'threads': '{n} 个线程',
    'singleThread': '单线程',
    'badge.none': '尚无结果',
    'recompute': '在浏览器里重新计算',
    'cancel': '取消',
    'progress': '{pct}% · 约剩 {eta}',
    'run.starting': '正在启动引擎…',
    'run.paused': '标签页隐藏时暂停',
    'cancelled': '已取消。',
    'error': '计算出错了。',
    'run.kept': '图中仍是上一次完整的结果。',
    'run.identical': '与预先算好的结果逐位相同：同一个引擎在这台机器上算出了同样的数。',
    'run.estimate': '（在这里约需 {eta}）',
    'run.estimate.short': '（在这里不到一秒）',
    'run.offered': '这个链接要求一次实时运行，在这里约需 {eta}，超过了链接自行启动的时长。设置已经填好：按“在浏览器里重新计算”即可运行。',
    'run.differs': '与预先算好的结果有 {count} 个数不同，相对差最大 {rel}。',
    'run.nan': '有的运行发散了（损失爆掉或不再是数），已在停下的那一步标出，之后不再画。',
    'run.settings': '实时运行的设置',
    'run.shared': '图 2 和图 3 共用这一次计算。',
    'loading': '加载中…',
    'state.missing': '预计算结果加载失败（{message}），请在浏览器里重算。',
    'tableView': '以表格查看',
    'chartView': '以图表查看',
    'paperFigureLabel': '论文原图',
    'optimizer.adam': 'Adam',
    'optimizer.sgd': '带动量的 SGD',
    'optimizer.radam': 'RAdam',
    'verdict.os.confirmed':
      '结论：成立。Post-LN 的输出变化大致随深度线性增长（斜率 {post}），Pre-LN 增长得慢得多（斜率 {pre}）；随机扰动和 Adam 的符号步都是如此。',
    'verdict.os.qualified':
      '结论：只对随机方向成立。随机扰动下，Post-LN 的输出变化大致随深度线性增长（斜率 {post}），Pre-LN 增长得慢（斜率 {pre}；Admin {admin}）。换成 Adam 的符号步——Adam 一次更新实际造成的扰动——Pre-LN 的输出变化随深度增长得和 Post-LN 一样快甚至更快（斜率 {signPre}，Post-LN {signPost}）。',
    'verdict.os.refuted':
      '结论：在这个设定下不成立。Post-LN 的斜率是 {post}，Pre-LN 是 {pre}（Admin {admin}）；判据要求前者至少 0.75、后者至多 0.6。',
    'verdict.tied.confirmed':
      '结论：得到支持。输出层与词嵌入共享、输入乘 √d（文中的模型）时，Pre-LN 最后一层的梯度在双对数坐标里以斜率 {tiedSqrt} 下降，比 1/√L（斜率 −0.5）快得多。去掉其中任何一样，它都大致按 1/√L 下降：去掉 √d 是 {tiedNone}，不共享是 {untiedSqrt}，两样都去掉是 {untiedNone}。文中的模型在初始化时还会预测“当前这个词”（概率从最浅到最深的模型依次为 {pCurrent}），主干越深，这一项被稀释得越多。',
    'verdict.tied.refuted':
      '结论：在这个设定下得不到支持。Pre-LN 的斜率：文中的模型（共享、√d）是 {tiedSqrt}；去掉 √d、不共享、两样都去掉分别是 {tiedNone}、{untiedSqrt}、{untiedNone}；判据要求前者低于 −0.75，其余在 −0.5 ± 0.25 之内。',
    'verdict.afs.confirmed':
      '结论：成立。第 1 步每个坐标都挪动约 lr（更新的 RMS / lr 为 {rms1}），尽管两者的梯度范数相差 {gradGap} 倍；直到第 {T} 步，更新幅度仍相差不到 1.5 倍（{rmsT}）。',
    'verdict.afs.qualified':
      '结论：只对最初几步成立。第 1 步每个坐标都挪动约 lr（更新的 RMS / lr 为 {rms1}），尽管梯度范数相差 {gradGap} 倍；但到第 {T} 步，更新幅度已相差 {laterGap} 倍（{rmsT}）：Adam 拉平的是第一步，不是整个训练。',
    'verdict.afs.refuted':
      '结论：在这个设定下不成立。第 1 步更新的 RMS / lr 是 {rms1}；判据要求每种放法都在 1 ± 5% 之内。',
    'verdict.afs.untested':
      '结论：这个设定决定不了。第 1 步两者的梯度范数只差 {gradGap} 倍，Adam 没有尺度可以掩盖。',
    'verdict.wl.confirmed':
      '结论：在峰值学习率 {lr} 下成立。Post-LN 用 Adam、不预热，始终离不开平台；三种补救各自都能让它离开：预热 {firstWarmupThatEscapes} 步，不预热的 RAdam（第 {postRadam0} 步），不预热的 Pre-LN（第 {preAdam0} 步）。峰值学习率 {lrHi} 时，不预热的 RAdam 在第 {postRadam0Hi} 步离开，能救回 Post-LN + Adam 的最短预热是 {firstWarmupThatEscapesHi} 步（— 表示从未、没有）。',
    'verdict.wl.refuted':
      '结论：在峰值学习率 {lr} 下不成立。有一种补救没能让 Post-LN 离开平台：最短的有效预热 {firstWarmupThatEscapes}，不预热的 RAdam {postRadam0}，不预热的 Pre-LN {preAdam0}（— 表示从未）。',
    'verdict.wl.untested':
      '结论：这个设定决定不了。Post-LN 用 Adam 不预热也离开了平台，没有失败可以去除。',
    'verdict.sgd.refuted':
      'SGD 对照：用带动量的 SGD、峰值学习率 {lr} 时，Pre-LN 不预热也能训练（第 {pre0} 步离开平台），Post-LN 不预热就停在平台上，需要 {firstWarmupThatEscapes} 步预热。在玩具模型里，论文的对照说明了它要说明的事；对它的怀疑在这里不成立。',
    'verdict.sgd.confirmed':
      'SGD 对照：Pre-LN 用 SGD 也训练不起来（峰值学习率 {lr}），所以这个对照说明不了预热；对它的怀疑在这里成立。',
    'verdict.sgd.qualified':
      'SGD 对照：Pre-LN 用 SGD 能训练（峰值学习率 {lr}），但试过的预热都救不回 Post-LN；对照只部分成立。',
    'verdict.sgd.untested':
      'SGD 对照在这个设定下决定不了（没有 SGD 的运行，或 Post-LN 用 SGD 不预热也离开了平台）。',
    'verdict.ps.confirmed':
      '结论：成立。不预热的 Post-LN 停在平台上（损失 {endLoss}，平台为 {plateau}），没有发散；它最后一层的词特异份额从 {share0} 降到 {shareEnd}：每个词最后都带着同一个向量，而这正是只预测词频所需要的全部。',
    'verdict.ps.refuted':
      '结论：在这个设定下不成立。不预热的 Post-LN 停在平台上（损失 {endLoss}），但它最后一层的词特异份额从 {share0} 变到 {shareEnd}，没有降到一半以下。',
    'verdict.ps.untested':
      '结论：这个设定决定不了。不预热的 Post-LN 离开了平台或中途停止（损失 {endLoss}，状态 {status}），没有停滞可看。',
    'verdict.ss.confirmed':
      '结论：成立。相对 Post-LN，Pre-LN 单层更新对 logits 的影响从最浅到最深的模型由 {rFirst} 降到 {rLast}，而 Pre-LN 的最佳符号步 η* 并不随深度变小（{etaPre}）。',
    'verdict.ss.qualified':
      '结论：只部分成立。相对 Post-LN，Pre-LN 单层更新对 logits 的影响从最浅到最深的模型由 {rFirst} 降到 {rLast}，正如“衰减”所预言；但 Pre-LN 整体符号步的最佳步长 η* 照样随深度变小（{etaPre}），这种衰减并没有让深的 Pre-LN 模型承受更大的 Adam 步。',
    'verdict.ss.refuted':
      '结论：在这个设定下不成立。相对 Post-LN，Pre-LN 单层对 logits 的影响从最浅到最深的模型由 {rFirst} 变到 {rLast}；判据要求它减半。',
    'verdict.df.confirmed':
      '结论：成立。{L} 层时 Post-LN 的 W² 梯度是平的，不是附录 F 的衰减：第 1 层的梯度是最后一层的 {r}，各层都在 {w2Min} 到 {w2Max} 之间。梯度穿过一层，在 LN 处乘以 {normFactor}，在残差雅可比处乘以 {residualFactor}，合起来是 {factor}。单看 FFN 子层，正是文中的数：LN 是 {ffnNorm}（√(2/3) = 0.82），残差支路是 {ffnResidual}（√(3/2) = 1.22）。',
    'verdict.df.qualified':
      '结论：只部分成立。{L} 层时 Post-LN 的 W² 梯度是平的（第 1 层是最后一层的 {r}），但原因不是残差雅可比补回了 LN 除掉的部分：每层 LN 让梯度乘以 {normFactor}，残差雅可比乘以 {residualFactor}。',
    'verdict.df.refuted':
      '结论：在这个设定下不成立。{L} 层时 Post-LN 第 1 层的 W² 梯度是最后一层的 {r}，离附录 F 的衰减不比离“平”远；每层 LN 让梯度乘以 {normFactor}，残差雅可比乘以 {residualFactor}。',
    'sep.colon': '：',
    'sep.list': '，',
    'engine.line': '{label}：{engine}。{why}',
    'engine.label': '计算引擎',
    'engine.webgpu': 'WebGPU（{detail}）',
    'engine.cpu-mt': '多线程 CPU 引擎（WebAssembly，{threads} 个线程）',
    'engine.cpu-st': '单线程 CPU 引擎（WebAssembly）',
    'engine.why.ready': '启动自检的结果与 CPU 引擎一致。',
    'engine.why.override-cpu': '由 ?backend=cpu 指定。',
    'engine.why.forced': '自检未通过（{detail}），但 ?backend=webgpu 要求继续使用。',
    'engine.why.unsupported': '这个浏览器不支持 WebGPU。',
    'engine.why.no-adapter': '没有可用的 WebGPU 适配器。',
    'engine.why.software': '唯一的 WebGPU 适配器（{detail}）是软件模拟的，比 CPU 引擎还慢。',
    'engine.why.device-failed': '无法创建 WebGPU 设备（{detail}）。',
    'engine.why.self-test-failed': 'WebGPU 自检结果与 CPU 引擎不符（{detail}）。',
    'engine.why.skipped': '',
    'engine.why.gpu-failed': 'GPU 在运行中出错（{detail}），这次计算已在 CPU 上重新开始。',
    'engine.asked': '虽然指定了 ?backend=webgpu，但：',
    'engine.noIsolation': '页面没有跨源隔离，因此不能用多线程。',
    'footer': '本页所有数字都由 ln-explorable 引擎测得：在你的浏览器里实时算出，或由同一份代码预先算好。',
    'share': '分享',
    'share.label': '分享或下载这张图',
    'share.link': '当前视图的链接',
    'share.copy': '复制',
    'share.embed': '嵌入你的网页',
    'share.embedCopied': '嵌入代码已复制',
    'share.copyFailed': '无法自动复制：文字已选中，请按 Ctrl+C / ⌘C。',
    'share.download': '下载',
    'share.svg': 'SVG：图的当前样子，附来源信息',
    'share.png': 'PNG（2 倍）：图的当前样子，附来源信息',
    'share.csv': 'CSV：图背后的数字，附来源信息',
    'share.json': 'JSON：图背后的数字，附来源信息',
    'share.preparing': '正在准备下载…',
    'share.downloaded': '{kind} 已保存。',
    'share.exportFailed': '导出失败：',
    'url.head': '链接里有几项设置无法使用，其余部分按链接显示。',
    'url.issue.invalid': '“{param}={value}”：{reason}。改用默认值。',
    'url.issue.unknown': '“{param}”不是本页的设置，已忽略。',
    'url.issue.duplicate': '“{param}”出现了不止一次（{value}），改用默认值。',
    'url.dismiss': '知道了',
    'url.lang': '语言只能是 zh 或 en',
    'url.theme': '主题只能是 light 或 dark',
    'url.embed': '要嵌入的图只能是 {figures} 之一',
    'url.fig1.step': '步数须为 1 到 6 的整数',
    'url.fig1.ln': 'Final LN 只能是 open 或 closed',
    'url.fig2.layer': '层号须为 1 到 6 的整数，或 final',
    'url.fig5.perturbation': '扰动须为 random 或 sign',
    'url.fig6.output': '输出层须为 tied 或 untied',
    'url.fig6.input': '输入缩放须为 sqrt_d 或 none',
    'url.fig11.placement': '放法须为引擎认得的一种：{placements}',
    'url.fig8.lr': '学习率须为 low 或 high',
    'url.fig3.stat': '统计量只能是 paper 或 batch',
    'url.fig3.model': '模型只能是 full 或 small',
    'url.fig3.depths': '一到十六个层数，1 到 48 的整数，用逗号分隔',
    'url.tooLong': '取值超过 200 个字符',
    'url.unknown': '不是本页的设置',
    'url.duplicate': '出现了不止一次',
    'cite.title': '引用本页',
    'cite.explainer': '本文',
    'cite.paper': '原论文：Xiong 等，2020（ICML）',
    'cite.copy': '复制 BibTeX',
    'cite.copied': '已复制',
    'embed.credit': '出自《{title}》：打开全文',
    'offline.ready': '本页已保存，可离线阅读。',
  },
};
