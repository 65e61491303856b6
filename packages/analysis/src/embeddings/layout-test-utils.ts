// Helpers shared by the UMAP and t-SNE tests (not exported from the package).

/**
 * Share of points whose nearest 2-D cluster centroid is their own cluster's: near 1 when a
 * layout keeps clusters apart, near 1/clusters when it mixes them.
 */
export function nearestCentroidAccuracy(coordinates: Float32Array, labels: Int32Array): number {
  const clusters = Math.max(...labels) + 1;
  const sum = new Float64Array(clusters * 2);
  const count = new Float64Array(clusters);
  labels.forEach((c, i) => {
    sum[2 * c]! += coordinates[2 * i]!;
    sum[2 * c + 1]! += coordinates[2 * i + 1]!;
    count[c]!++;
  });
  let correct = 0;
  labels.forEach((label, i) => {
    let best = -1;
    let bestDist = Infinity;
    for (let c = 0; c < clusters; c++) {
      const dx = coordinates[2 * i]! - sum[2 * c]! / count[c]!;
      const dy = coordinates[2 * i + 1]! - sum[2 * c + 1]! / count[c]!;
      if (dx * dx + dy * dy < bestDist) {
        bestDist = dx * dx + dy * dy;
        best = c;
      }
    }
    if (best === label) correct++;
  });
  return correct / labels.length;
}
