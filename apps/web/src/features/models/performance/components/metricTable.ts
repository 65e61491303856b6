// The column widths both performance tables (Statistics, Overall Performance) share, so their
// columns line up: the first column (split, class, word, value name) has a fixed width and the
// metric columns share the rest equally (the tables use a fixed layout).

export const KEY_COLUMN_WIDTH = 200;
/** Below this width per metric column the table scrolls sideways instead of squeezing. */
export const METRIC_COLUMN_MIN_WIDTH = 120;

/** The table's minimum width with `metrics` metric columns. */
export const metricTableWidth = (metrics: number) =>
  KEY_COLUMN_WIDTH + METRIC_COLUMN_MIN_WIDTH * metrics;
