/** WCAG contrast of colours as the browser computes them (`rgb(…)`/`rgba(…)`), for the palette and element tests. */
export type Rgb = [number, number, number];

export function parse(colour: string): Rgb {
  const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)/.exec(colour);
  if (!m) throw new Error(`not an rgb colour: ${colour}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(parse(a)), luminance(parse(b))].sort((m, n) => n - m) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

/** `colour` painted at `opacity` over `behind`: what the eye gets from a faded element. */
export function blend(colour: string, behind: string, opacity: number): string {
  const [a, b] = [parse(colour), parse(behind)];
  const mix = a.map((c, i) => Math.round(c * opacity + (b[i] ?? 0) * (1 - opacity)));
  return `rgb(${mix.join(', ')})`;
}

/** The product of the opacities from `el` up to (and including) `until`, across shadow roots. */
export function opacityOf(el: Element, until: Element): number {
  let opacity = 1;
  for (let node: Element | null = el; node; node = node.parentElement ?? ((node.getRootNode() as ShadowRoot).host ?? null)) {
    opacity *= Number(getComputedStyle(node).opacity);
    if (node === until) break;
  }
  return opacity;
}

/** The colour a custom property (`--_text`) or a CSS colour value resolves to inside an element's shadow root (light-dark() resolved). */
export function resolve(el: Element, property: string): string {
  const span = document.createElement('span');
  span.style.color = property.startsWith('--') ? `var(${property})` : property;
  el.shadowRoot?.append(span);
  const colour = getComputedStyle(span).color;
  span.remove();
  return colour;
}
