// The HTML report's flame graphs, drawn in the browser (inlined after d3 and d3-flame-graph by
// report/html-profile.js): each step's tree from the JSON in <script id="storebench-flames">,
// drawn when its <details> is first opened (its width known then). Each drawn graph's element
// records how many frames it drew, so a test can count them.
(function storebenchFlames() {
  const data = document.getElementById('storebench-flames');
  if (!data) return;
  const trees = JSON.parse(data.textContent);
  // Each frame in its part's colour, as the bars above (a frame with no part of its own: the library's).
  const colours = JSON.parse(data.dataset.colours ?? '{}');
  const frames = (node) => 1 + (node.children ?? []).reduce((sum, child) => sum + frames(child), 0);
  for (const element of document.querySelectorAll('.flame[data-step]')) {
    const tree = trees[Number(element.dataset.step)];
    const draw = () => {
      if (element.dataset.drawn || !tree) return;
      const chart = flamegraph.default()
        .width(Math.max(320, Math.floor(element.clientWidth || 900)))
        .cellHeight(16)
        .transitionDuration(0)
        .minFrameSize(1)
        .title('')
        .label((node) => `${node.data.name}: ${Math.round(node.value)} µs`)
        .setColorMapper((node, original) => colours[node.data.part] ?? original);
      d3.select(element).datum(tree).call(chart);
      element.dataset.drawn = String(frames(tree));
    };
    const details = element.closest('details');
    if (!details || details.open) draw();
    else details.addEventListener('toggle', draw);
  }
})();
