// Stylesheets bundled by esbuild into the benchmark pages.
declare module '*.css';

// The package's own types point at unresolvable path aliases; the page uses this much of it.
declare module '@alisaitteke/seatmap-canvas' {
  export class SeatMapCanvas {
    constructor(containerSelector: string, config: Record<string, unknown>);
  }
}
