/**
 * The page's own script: reads the embedded report and draws each chart with Chart.js.
 * Animation is off so a chart is complete once drawn (screenshots, print); when every chart
 * exists, `window.__faultline` says how many.
 */
export const CLIENT_SCRIPT = String.raw`
(function () {
  'use strict';
  var report = JSON.parse(document.getElementById('faultline-data').textContent);
  var palette = [
    '#1f77b4',
    '#ff7f0e',
    '#2ca02c',
    '#9467bd',
    '#8c564b',
    '#e377c2',
    '#7f7f7f',
    '#bcbd22',
    '#17becf',
    '#393b79',
    '#637939',
    '#8c6d31',
    '#843c39',
    '#7b4173',
    '#3182bd'
  ];
  var FLAG = '#d62728';
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.font.family = 'system-ui, sans-serif';
  var made = 0;
  report.sections.forEach(function (section) {
    section.charts.forEach(function (spec) {
      var canvas = document.getElementById(spec.id);
      if (!canvas) return;
      if (spec.kind === 'bar') {
        new Chart(canvas, {
          type: 'bar',
          data: {
            labels: spec.labels,
            datasets: [
              {
                label: spec.title,
                data: spec.values,
                backgroundColor: spec.labels.map(function (_, i) {
                  return spec.flagged[i] ? FLAG : palette[i % palette.length];
                })
              }
            ]
          },
          options: {
            plugins: { legend: { display: false }, title: { display: true, text: spec.title } },
            scales: {
              y: { beginAtZero: true, title: { display: spec.unit !== '', text: spec.unit } },
              x: { ticks: { autoSkip: false, maxRotation: 60, minRotation: 30 } }
            }
          }
        });
      } else {
        new Chart(canvas, {
          type: 'line',
          data: {
            datasets: spec.series.flatMap(function (s, i) {
              var color = palette[i % palette.length];
              var line = {
                label: s.label,
                data: s.points.map(function (p) {
                  return { x: p[0], y: p[1] };
                }),
                borderColor: color,
                backgroundColor: color,
                borderWidth: 1.5,
                pointRadius: s.points.length > 40 ? 0 : 2,
                tension: 0
              };
              if (!s.band) return [line];
              // The band: its lower edge, then its upper edge filled down to it ('-1'), both unlabelled in the legend.
              var edge = function (j) {
                return {
                  label: s.label + ' band',
                  band: true,
                  data: s.band.map(function (b) {
                    return { x: b[0], y: b[j] };
                  }),
                  borderWidth: 0,
                  pointRadius: 0,
                  tension: 0,
                  borderColor: color,
                  backgroundColor: color + '26',
                  fill: j === 2 ? '-1' : false
                };
              };
              return [line, edge(1), edge(2)];
            })
          },
          options: {
            plugins: {
              title: { display: true, text: spec.title },
              legend: {
                position: 'bottom',
                labels: {
                  boxWidth: 12,
                  filter: function (item, data) {
                    return !data.datasets[item.datasetIndex].band;
                  }
                }
              }
            },
            scales: {
              x: {
                type: 'linear',
                title: { display: true, text: spec.x },
                ticks: spec.x === 'k' ? { stepSize: 1, precision: 0 } : {}
              },
              y: { beginAtZero: true, title: { display: true, text: spec.y } }
            }
          }
        });
      }
      made++;
    });
  });
  window.__faultline = { charts: made, ready: true };
})();
`;
