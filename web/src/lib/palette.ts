// palette.ts — the role and series names shared by formulas and figures.
// Colours themselves live in styles/tokens.css as CSS custom properties, so light/dark themes and
// print switch in one place; figures reference them as `var(--role-norm)` etc.
export const ROLES = ['in', 'op', 'norm', 'param', 'loss'] as const;
export type Role = (typeof ROLES)[number];
export const roleVar = (r: Role): string => `var(--role-${r})`;

// The colours, markers and labels of placements: lib/placements.ts.
/** Dash patterns tell series apart without colour (SVG stroke-dasharray). */
export const DASH = {
  solid: '',
  dashed: '6 4',
  dotted: '1.5 3.5',
  /** long dashes */
  long: '13 4',
  /** short dashes */
  short: '3 2.5',
  /** long and short dashes, alternating */
  longShort: '11 3 3 3',
  /** dash-dot */
  dashDot: '8 3 1.5 3',
  /** dots in pairs */
  dotPairs: '1.5 2 1.5 6',
} as const;
