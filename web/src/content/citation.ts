// citation.ts — how to cite this page and the paper it reads, as BibTeX. Pure; the page URL, the
// title (in the reader's language) and the engine version are filled in at run time.
// The paper's entry is fixed: Xiong et al., ICML 2020 (PMLR 119), arXiv:2002.04745.

export const PAPER_BIBTEX = String.raw`@inproceedings{xiong2020layer,
  title     = {On Layer Normalization in the Transformer Architecture},
  author    = {Xiong, Ruibin and Yang, Yunchang and He, Di and
               Zheng, Kai and Zheng, Shuxin and Xing, Chen and
               Zhang, Huishuai and Lan, Yanyan and Wang, Liwei and
               Liu, Tie-Yan},
  booktitle = {Proceedings of the 37th International Conference
               on Machine Learning (ICML)},
  series    = {Proceedings of Machine Learning Research},
  volume    = {119},
  pages     = {10524--10533},
  publisher = {PMLR},
  year      = {2020},
  eprint    = {2002.04745},
  archivePrefix = {arXiv},
  primaryClass  = {cs.LG},
  url       = {https://arxiv.org/abs/2002.04745}
}`;

/** Year the explainer's text and engine were published (bump with a new edition). */
export const EXPLAINER_YEAR = 2026;

const bib = (s: string) =>
  s
    .replace(/[{}\\]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** The explainer's entry: @misc with its own URL (none where it is not known: the page the build
 *  writes without the site's address, which the live page fills in), the reader's-language title
 *  and the engine version. */
export function explainerBibtex(o: { url: string; title: string; version: string | null; lang: 'zh' | 'en' }): string {
  const note = o.version ? `Interactive explainer; engine v${bib(o.version)}` : 'Interactive explainer';
  return [
    '@misc{lnexplorable' + EXPLAINER_YEAR + ',',
    `  title        = {${bib(o.title)}},`,
    '  author       = {{ln-explorable contributors}},',
    `  year         = {${EXPLAINER_YEAR}},`,
    ...(o.url ? [`  howpublished = {\\url{${bib(o.url)}}},`] : []),
    `  note         = {${note}},`,
    `  language     = {${o.lang === 'zh' ? 'chinese' : 'english'}}`,
    '}',
  ].join('\n');
}
