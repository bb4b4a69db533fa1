// og-picture.mjs — rasterises the Open Graph / Twitter picture the build draws for each copy
// (web/src/prerender/web-found.ts ogPictureSvg) into a PNG, without a browser: resvg
// (@resvg/resvg-js, a prebuilt binary from npm). Fonts: the Latin text is set in KaTeX's sans serif
// (a TrueType file inside node_modules/katex, so it is always there); Chinese needs a CJK font of
// the system (fonts-wqy-microhei, which scripts/setup.sh installs, or Noto CJK). Without one, the
// Chinese picture is drawn without its Chinese text (the chart, the placements' names and the
// numbers) rather than with empty boxes, and the build says so.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';

const CJK_FONTS = [
  '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc',
];

/** The font files the picture of `lang` is set in, and whether they cover its text. */
export function pictureFonts(root, lang) {
  const katex = join(root, 'node_modules/katex/dist/fonts');
  const latin = ['KaTeX_SansSerif-Regular.ttf', 'KaTeX_SansSerif-Bold.ttf'].map((f) => join(katex, f)).filter(existsSync);
  const cjk = lang === 'zh' ? CJK_FONTS.filter(existsSync).slice(0, 1) : [];
  return { files: [...latin, ...cjk], covered: latin.length > 0 && (lang !== 'zh' || cjk.length > 0) };
}

/** The PNG of `svg`, set in `files` only (no system font is looked up: the picture is the same
 *  on every machine that has them). */
export function rasterise(svg, files) {
  const r = new Resvg(svg, { font: { loadSystemFonts: false, fontFiles: files, defaultFontFamily: 'KaTeX_SansSerif' }, fitTo: { mode: 'original' } });
  return r.render().asPng();
}
