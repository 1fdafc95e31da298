// The HTML report's script, run in the browser (inlined into the page by html-assets.js, after
// uPlot): draws every chart from the JSON in <script id="storebench-charts">, sizes them to
// their box (a phone's width, a printed page's), and records on each chart's element how many
// series it drew, so a test can count them.
(function storebenchCharts() {
  const specs = JSON.parse(document.getElementById('storebench-charts').textContent).charts;
  const PALETTE = [
    '#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f',
    '#bcbd22', '#17becf', '#393b79', '#ad494a', '#637939', '#843c39', '#5254a3',
  ];
  const colours = new Map();
  const colourOf = (label) => {
    if (!colours.has(label)) colours.set(label, PALETTE[colours.size % PALETTE.length]);
    return colours.get(label);
  };
  // Percentile axis labels: 1/(1-p) = 2 is 50%, 10 is 90%, 100 is 99%, ...
  const PERCENTILE_TICKS = [2, 10, 100, 1000, 10000, 100000];
  const percentileName = (x) => `${Number((100 * (1 - 1 / x)).toPrecision(6))}%`;
  const HEIGHT = 260;

  const widthOf = (element) => Math.max(240, Math.floor(element.clientWidth || 600));

  // A timeline: rps on the left axis, p99 (and the store's own p99) on the right, a dashed line
  // where each step began.
  function timelineOptions(spec, element, drawn) {
    const marks = (u) => {
      const { ctx } = u;
      ctx.save();
      ctx.strokeStyle = '#888';
      ctx.fillStyle = '#555';
      ctx.setLineDash([4, 4]);
      ctx.font = `${Math.round(10 * window.devicePixelRatio)}px sans-serif`;
      for (const mark of spec.marks) {
        const left = Math.round(u.valToPos(mark.x, 'x', true));
        ctx.beginPath();
        ctx.moveTo(left, u.bbox.top);
        ctx.lineTo(left, u.bbox.top + u.bbox.height);
        ctx.stroke();
        ctx.fillText(mark.label, left + 3, u.bbox.top + 12 * window.devicePixelRatio);
      }
      ctx.restore();
    };
    const lineColours = ['#1f77b4', '#d62728', '#2ca02c'];
    return {
      width: widthOf(element),
      height: HEIGHT,
      title: spec.title,
      padding: [8, 8, 0, 0],
      scales: {
        x: { time: false },
        y: { range: (u, min, max) => [0, max > 0 ? max * 1.08 : 1] },
        ms: { range: (u, min, max) => [0, max > 0 ? max * 1.08 : 1] },
      },
      axes: [
        { label: spec.xLabel },
        { label: spec.yLabel, size: 60 },
        { label: spec.y2Label, scale: 'ms', side: 1, size: 50, grid: { show: false } },
      ],
      series: [
        { label: spec.xLabel, value: (u, x) => (x === null ? '-' : `${Number(x.toPrecision(4))} s`) },
        ...spec.series.map((series, index) => ({
          label: series.label,
          scale: series.scale ?? 'y',
          stroke: lineColours[index % lineColours.length],
          width: 1.5,
          spanGaps: false,
          points: { show: false },
          value: (u, y) => (y === null ? '-' : `${Number(y.toPrecision(4))} ${series.scale === 'ms' ? 'ms' : 'rps'}`),
        })),
      ],
      legend: { live: true },
      hooks: {
        draw: [marks],
        drawSeries: [(u, index) => {
          drawn.add(index);
          element.dataset.drawnSeries = String(drawn.size);
        }],
      },
    };
  }

  function options(spec, element) {
    if (spec.kind === 'timeline') return timelineOptions(spec, element, new Set());
    const percentiles = spec.kind === 'percentiles';
    const drawn = new Set();
    return {
      width: widthOf(element),
      height: HEIGHT,
      title: spec.title,
      // Room on the right for the last axis label (99.999%).
      padding: [8, percentiles ? 28 : 16, 0, 0],
      scales: {
        x: percentiles ? { time: false, distr: 3, log: 10, range: () => [2, 100000] } : { time: false },
        y: { range: (u, min, max) => [0, max > 0 ? max * 1.08 : 1] },
      },
      axes: [
        percentiles
          ? {
              label: spec.xLabel,
              splits: () => PERCENTILE_TICKS,
              filter: (u, splits) => splits,
              values: (u, splits) => splits.map(percentileName),
            }
          : { label: spec.xLabel, splits: () => spec.x, values: (u, splits) => splits.map(String) },
        { label: spec.yLabel, size: 60 },
      ],
      series: [
        { label: spec.xLabel, value: (u, x) => (x === null ? '-' : percentiles ? percentileName(x) : String(x)) },
        ...spec.series.map((series) => ({
          label: series.label,
          stroke: colourOf(series.label),
          width: 2,
          spanGaps: false,
          points: { show: !percentiles, size: 6 },
          value: (u, y) => (y === null ? '-' : `${Number(y.toPrecision(4))} ${spec.yLabel}`),
        })),
      ],
      legend: { live: true },
      hooks: {
        drawSeries: [(u, index) => {
          drawn.add(index);
          element.dataset.drawnSeries = String(drawn.size);
        }],
      },
    };
  }

  const plots = [];
  for (const spec of specs) {
    const element = document.getElementById(spec.id);
    element.dataset.series = String(spec.series.length);
    const plot = new uPlot(options(spec, element), [spec.x, ...spec.series.map((series) => series.values)], element);
    plots.push({ plot, element });
  }
  window.storebenchPlots = plots.map(({ plot }) => plot);

  const resize = () => {
    for (const { plot, element } of plots) {
      const width = widthOf(element);
      if (Math.abs(width - plot.width) > 2) plot.setSize({ width, height: HEIGHT });
    }
  };
  let pending = null;
  window.addEventListener('resize', () => {
    clearTimeout(pending);
    pending = setTimeout(resize, 100);
  });
  // Printing: open every folded table, and fit the charts to the page's width.
  window.addEventListener('beforeprint', () => {
    for (const details of document.querySelectorAll('details:not(.licence)')) details.open = true;
    resize();
  });
  window.addEventListener('afterprint', resize);
  window.matchMedia?.('print').addEventListener?.('change', resize);
})();
