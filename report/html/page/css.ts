/**
 * @module
 * The stylesheet inlined into report.html: CSS variables for light and dark, and print rules.
 */

/** The page's CSS, inlined in a `<style>` element whose hash the CSP allows. */
export const PAGE_CSS = `
:root {
  --bg: #f4f5f7; --card: #ffffff; --fg: #1d2330; --muted: #5b6475; --grid: rgba(60, 70, 90, 0.14);
  --line: #dde1e8; --accent: #c2570c; --good: #11803d; --bad: #c0262d; --link: #1d5fd1;
  --font: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  --mono: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root:not(.printing) {
    --bg: #12151b; --card: #1b1f27; --fg: #e3e6ec; --muted: #9aa3b2; --grid: rgba(200, 210, 230, 0.13);
    --line: #2c323d; --accent: #f0883e; --good: #4cc27a; --bad: #ff6b6b; --link: #79a8ff;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 14px/1.45 var(--font); }
main { max-width: 1320px; margin: 0 auto; padding: 16px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 14px 18px;
  margin: 0 0 16px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 0 0 8px; }
h3 { font-size: 14px; margin: 12px 0 6px; }
.lead { margin: 0 0 8px; color: var(--muted); }
.note { color: var(--muted); margin: 0 0 10px; font-size: 13px; }
.warn { border-left: 4px solid var(--accent); padding: 6px 10px; background: rgba(240, 136, 62, 0.1); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 8px 0; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; }
pre { font: 12px/1.4 var(--mono); background: var(--bg); border: 1px solid var(--line); border-radius: 6px;
  padding: 8px 10px; overflow: auto; max-height: 420px; white-space: pre-wrap; overflow-wrap: anywhere; }
pre.oha { tab-size: 16; max-height: 560px; }
svg.flame { display: block; margin: 6px 0; font-family: var(--mono); }
svg.flame g.frame { cursor: pointer; }
svg.flame g.frame:hover rect { stroke: var(--fg); stroke-width: 1; }
h3.run-name { font-size: 15px; margin: 4px 0; overflow-wrap: anywhere; }
details { margin: 8px 0; }
summary { cursor: pointer; color: var(--link); }
.thresholds { margin: 10px 0 4px; padding: 8px 12px; border-radius: 6px; border: 1px solid var(--line); }
.thresholds.pass { border-left: 5px solid var(--good); }
.thresholds.fail { border-left: 5px solid var(--bad); }
.thresholds ul { list-style: none; margin: 6px 0 0; padding: 0; }
.badge { display: inline-block; font-size: 11px; font-weight: 700; padding: 0 6px; border-radius: 4px;
  color: #fff; background: var(--good); }
li.fail .badge { background: var(--bad); }
.badge.flag, li .badge.flag { background: var(--accent); }
.badge.flag.failed { background: var(--bad); }
ul.findings { margin: 4px 0; padding-left: 18px; }
ul.findings li { margin: 3px 0; }
ul.findings li.warn, ul.findings li.bad { color: var(--bad); }
ul.findings li.good { color: var(--good); }
.table-wrap { overflow-x: auto; }
table.data { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
table.data th, table.data td { padding: 4px 8px; border-bottom: 1px solid var(--line); text-align: left;
  vertical-align: top; }
table.data th { position: sticky; top: 0; background: var(--card); font-weight: 600; white-space: nowrap; }
table.data th.sortable { cursor: pointer; user-select: none; }
table.data th[data-dir="asc"]::after { content: " ▲"; font-size: 10px; }
table.data th[data-dir="desc"]::after { content: " ▼"; font-size: 10px; }
table.data .num { text-align: right; white-space: nowrap; }
table.data td.name { white-space: nowrap; max-width: 360px; overflow: hidden; text-overflow: ellipsis; }
.stack { display: inline-flex; flex-direction: column; align-items: flex-end; line-height: 1.2; }
.stack small { font-size: 11px; }
table.data tbody tr:hover { background: rgba(120, 140, 180, 0.08); }
table.compact { font-size: 12px; width: auto; margin-bottom: 8px; }
.good { color: var(--good); }
.bad { color: var(--bad); }
.muted { color: var(--muted); }
button.link { background: none; border: 0; padding: 0; color: var(--link); cursor: pointer; font: inherit;
  text-align: left; overflow-wrap: anywhere; }
button.toggle { float: right; font: 11px var(--font); padding: 1px 8px; border-radius: 4px; cursor: pointer;
  background: var(--bg); color: var(--fg); border: 1px solid var(--line); }
.picker { display: block; margin: 0 0 10px; font-weight: 600; }
select { font: inherit; padding: 3px 6px; max-width: 100%; background: var(--card); color: var(--fg);
  border: 1px solid var(--line); border-radius: 4px; }
.grid2, .grid3 { display: grid; gap: 14px; margin: 8px 0; }
.grid2 { grid-template-columns: repeat(auto-fit, minmax(440px, 1fr)); }
.grid3 { grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); }
figure.chart { margin: 0; min-width: 0; }
figure.chart figcaption { font-weight: 600; font-size: 13px; margin-bottom: 4px; }
.chart-area { position: relative; height: 260px; }
figure.wide .chart-area { height: 320px; }
footer { color: var(--muted); font-size: 12px; text-align: center; padding: 8px 0 24px; }
@media print {
  body { background: #fff; color: #000; font-size: 11px; }
  main { max-width: none; padding: 0; }
  .card { border: 0; padding: 4px 0; break-inside: avoid-page; }
  figure.chart, table.data tr { break-inside: avoid; }
  button.toggle, .picker select, input[type="checkbox"] { display: none; }
  pre { max-height: none; }
  .table-wrap { overflow: visible; }
}
`;
