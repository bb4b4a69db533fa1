import { describe, expect, it, vi } from 'vitest';
import { isSafeUrl, renderInline, renderMath } from '../../web/src/lib/inline';

const b = { 'pre.gain': '0.42', list: '1.45、1.47', evil: '<img src=x onerror=alert(1)>' };
const r = (s: string) => renderInline(s, { bindings: b });

describe('renderInline: markup', () => {
  it.each([
    ['plain text', 'plain text'],
    ['**bold**', '<strong>bold</strong>'],
    ['*it*', '<em>it</em>'],
    ['`a<b`', '<code>a&lt;b</code>'],
    ['**a *b* c**', '<strong>a <em>b</em> c</strong>'],
    ['5 * 3 * 2', '5 * 3 * 2'],
    // characters that may start markup but do not, between plain runs (copied in pieces)
    ['a { b } c [d] e \\ g <x> & {{nope} ] end', 'a { b } c [d] e \\ g &lt;x&gt; &amp; {{nope} ] end'],
    [
      'x**b**[l](https://e.org){{pre.gain}}`c`y',
      'x<strong>b</strong><a href="https://e.org" rel="noopener noreferrer" target="_blank">l</a><span class="bound" data-key="pre.gain">0.42</span><code>c</code>y',
    ],
    ['a ** b', 'a ** b'],
    ['\\$5 and \\*x\\*', '$5 and *x*'],
    ['[site](https://example.org/a?b=1&c=2)', '<a href="https://example.org/a?b=1&amp;c=2" rel="noopener noreferrer" target="_blank">site</a>'],
    ['[**b** link](https://x.org)', '<a href="https://x.org" rel="noopener noreferrer" target="_blank"><strong>b</strong> link</a>'],
    ['{{pre.gain}}', '<span class="bound" data-key="pre.gain">0.42</span>'],
    ['{{ list }}', '<span class="bound" data-key="list">1.45、1.47</span>'],
    ['x {{nope.key}} y', 'x <span class="bound missing" data-key="nope.key">[?nope.key]</span> y'],
    ['{{not a key}}', '{{not a key}}'],
    ['中文，**粗体**。', '中文，<strong>粗体</strong>。'],
  ])('%s', (src, html) => expect(r(src)).toBe(html));
});

describe('renderInline: figure references', () => {
  const labels: Record<string, string> = { fig7: 'Figure C', fig3: '图 3' };
  const rf = (src: string, onUnknownKey?: (k: string) => void) => renderInline(src, { figureLabel: (id) => labels[id], onUnknownKey });
  it.each([
    ['see {{#fig7}} below', 'see <a class="figref" href="#fig7">Figure C</a> below'],
    ['（{{#fig3}}）', '（<a class="figref" href="#fig3">图 3</a>）'],
    ['**{{#fig7}}**', '<strong><a class="figref" href="#fig7">Figure C</a></strong>'],
    ['{{#fig}} {{# fig7}} {{#fig7 }}', '{{#fig}} {{# fig7}} {{#fig7 }}'],
  ])('%s', (src, html) => expect(rf(src)).toBe(html));
  it('an unknown figure: a visible gap and onUnknownKey, no link', () => {
    const seen: string[] = [];
    expect(rf('{{#fig99}}', (k) => seen.push(k))).toBe('<span class="bound missing" data-key="#fig99">[?#fig99]</span>');
    expect(seen).toEqual(['#fig99']);
    expect(renderInline('{{#fig7}}')).toBe('<span class="bound missing" data-key="#fig7">[?#fig7]</span>');
  });
  it('a label is escaped', () => {
    expect(renderInline('{{#fig1}}', { figureLabel: () => '<b>x</b>' })).toBe('<a class="figref" href="#fig1">&lt;b&gt;x&lt;/b&gt;</a>');
  });
});

describe('renderInline: injection attempts are inert', () => {
  it.each([
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['<img src=x onerror=alert(1)>', '&lt;img src=x onerror=alert(1)&gt;'],
    ['"quoted" & \'single\'', '&quot;quoted&quot; &amp; &#39;single&#39;'],
    ['[x](javascript:alert(1))', '[x](javascript:alert(1))'], // not even parsed as a link
    ['[x](javascript:alert`1`)', 'x'],
    ['[x](http://plain.org)', 'x'],
    ['[x](data:text/html,hi)', 'x'],
    ['[x](https://u:p@evil.org)', 'x'],
    ['[x](//evil.org)', 'x'],
    ['**<b>**', '<strong>&lt;b&gt;</strong>'],
    ['`<script>`', '<code>&lt;script&gt;</code>'],
  ])('%s', (src, html) => expect(r(src)).toBe(html));

  it('escapes bound values', () => {
    expect(r('{{evil}}')).toBe('<span class="bound" data-key="evil">&lt;img src=x onerror=alert(1)&gt;</span>');
  });
  it('escapes a link href attribute', () => {
    expect(r('[x](https://a.org/"onmouseover="alert(1))')).not.toContain('"onmouseover');
  });
  it.each([
    ['$\\href{javascript:alert(1)}{x}$'],
    ['$\\url{javascript:alert(1)}$'],
    ['$\\htmlClass{x" onclick="alert(1)}{y}$'],
    ['$\\htmlStyle{color:red}{y}$'],
    ['$\\htmlId{main}{y}$'],
    ['$\\htmlData{foo=bar}{y}$'],
    ['$\\includegraphics{https://evil.org/a.png}$'],
    ['$\\role{x" onclick="alert(1)}{y}$'],
    ['$<img src=x onerror=alert(1)>$'],
  ])('TeX %s cannot smuggle markup', (src) => {
    const tags = r(src).match(/<[^>]*>/g) ?? [];
    for (const tag of tags) {
      expect(tag).not.toMatch(/^<(a|img|script|iframe)\b|\shref=|\son\w+=|color:\s*red|\sid="main"|data-foo/i);
    }
  });
});

describe('renderInline: math', () => {
  it('renders $…$ with KaTeX', () => {
    const html = r('a $x^2$ b');
    expect(html.startsWith('a <span class="katex">')).toBe(true);
    expect(html.endsWith(' b')).toBe(true);
  });
  it('\\role colours by role class and nothing else', () => {
    const html = r('$\\role{norm}{\\mathrm{LN}}$');
    expect(html).toContain('class="enclosing role-norm"');
  });
  it.each(['in', 'op', 'norm', 'param', 'loss'])('role %s is allowed', (role) => {
    expect(r(`$\\role{${role}}{x}$`)).toContain(`role-${role}`);
  });
  it('an unknown role is not emitted as a class', () => {
    expect(r('$\\role{bogus}{x}$')).not.toContain('role-bogus"');
  });
  it('invalid TeX is shown escaped and marked, not thrown', () => {
    const html = r('$\\frac{1}{$');
    expect(html).toContain('tex-error');
  });
  it('a lone $ is literal', () => expect(r('costs $5')).toBe('costs $5'));
  it('known {{key}} inside math is substituted as text', () => {
    const html = r('$g = {{pre.gain}}$');
    expect(html).toContain('0.42');
    expect(html).not.toContain('{{');
  });
  it('unknown {{key}} inside math is marked and reported', () => {
    const onUnknownKey = vi.fn();
    const html = renderInline('$g={{zzz}}$', { bindings: b, onUnknownKey });
    expect(html).toContain('[?zzz]');
    expect(onUnknownKey).toHaveBeenCalledWith('zzz');
  });
  it('bound values cannot inject TeX', () => {
    const html = renderInline('${{v}}$', { bindings: { v: '\\href{javascript:1}{x}' } });
    expect(html).not.toContain('href');
  });
  it('display math blocks render in display mode', () => {
    expect(renderMath('x=1', { bindings: b })).toContain('katex-display');
  });
  it('reports unknown keys in prose', () => {
    const onUnknownKey = vi.fn();
    renderInline('{{a.b}} and {{pre.gain}}', { bindings: b, onUnknownKey });
    expect(onUnknownKey).toHaveBeenCalledTimes(1);
    expect(onUnknownKey).toHaveBeenCalledWith('a.b');
  });
});

describe('isSafeUrl', () => {
  it.each([
    ['https://arxiv.org/abs/2002.04745', true],
    ['http://arxiv.org', false],
    ['javascript:alert(1)', false],
    ['mailto:a@b.c', false],
    ['https://user:pw@host.org', false],
    ['/relative', false],
    ['', false],
  ])('%s → %s', (u, ok) => expect(isSafeUrl(u)).toBe(ok));
});

describe('a number a live run changed', () => {
  it('is marked and followed by the reference’s value in visible text; the others are not', () => {
    const html = renderInline('a {{x}} b {{y}}', { bindings: { x: '0.31', y: '2' }, changed: { x: ' (article: 0.54)' } });
    expect(html).toBe(
      'a <span class="bound live" data-key="x">0.31</span><span class="bound-ref" data-ref="x"> (article: 0.54)</span> b <span class="bound" data-key="y">2</span>',
    );
  });
  it('escapes the note', () => {
    expect(renderInline('{{x}}', { bindings: { x: '1' }, changed: { x: '"<b>' } })).toContain('>&quot;&lt;b&gt;</span>');
  });
});
