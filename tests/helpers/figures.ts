/**
 * A figure a suite measures (a size, a count), printed only when the run asks for it with
 * FIGURES=1: a plain test run stays quiet, and a failing budget names the figure anyway.
 */
export function reportFigure(line: string): void {
  if (process.env.FIGURES === '1') console.log(line);
}
