// Order statistics for benchmark repetitions. Medians, not means: a shared
// machine produces one-sided outliers (another process stealing the core), and
// the median of five ignores up to two of them.

/**
 * Median of a non-empty list of finite numbers.
 * @param {number[]} values
 * @returns {number}
 * @throws {RangeError} when the list is empty or holds a non-finite value.
 */
export function median(values) {
  if (!Array.isArray(values) || values.length === 0) {
    throw new RangeError("median: expected a non-empty array of numbers");
  }
  for (const value of values) {
    if (!Number.isFinite(value)) throw new RangeError(`median: expected finite numbers, got ${value}`);
  }
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Ratio of two workloads measured in the same run: the median over
 * repetitions of `numerator[i] / denominator[i]`, where repetition `i` of both
 * ran back to back. Pairing cancels drift in machine load that a ratio of two
 * medians would fold in.
 * @param {number[]} numerator per-repetition figures, in repetition order
 * @param {number[]} denominator per-repetition figures, same length and order
 * @returns {number}
 * @throws {RangeError} when the lists differ in length, are empty, or a denominator is 0.
 */
export function pairedRatio(numerator, denominator) {
  if (numerator.length !== denominator.length || numerator.length === 0) {
    throw new RangeError(`pairedRatio: expected two equally long non-empty lists, got ${numerator.length} and ${denominator.length}`);
  }
  const ratios = numerator.map((value, i) => {
    if (denominator[i] === 0) throw new RangeError(`pairedRatio: repetition ${i} has a zero denominator`);
    return value / denominator[i];
  });
  return median(ratios);
}

/**
 * Smallest and largest value, to show the spread next to a median.
 * @param {number[]} values
 * @returns {{ min: number, max: number }}
 */
export function spread(values) {
  return { min: Math.min(...values), max: Math.max(...values) };
}

/** Student's t at 97.5 % for 1 to 30 degrees of freedom (two-sided 95 %); 1.96 beyond. */
const T_975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069,
  2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** Student's t at 97.5 % for `freedom` degrees of freedom (a fraction rounds down; 1.96 past the table). */
function t975(freedom) {
  return freedom >= T_975.length + 1 ? 1.96 : T_975[Math.max(1, Math.floor(freedom)) - 1];
}

/** A sample's mean and the variance of that mean (the sample variance over its size). */
function moments(sample) {
  const mean = sample.reduce((sum, value) => sum + value, 0) / sample.length;
  const variance = sample.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (sample.length - 1);
  return { mean, share: variance / sample.length };
}

/**
 * The difference of two means, `b − a`, with the half-width of its 95 %
 * confidence interval (Welch: the two samples may spread differently). For
 * comparing builds over several server processes each, where one process
 * differs from another of the same build by more than the change measured.
 * @param {number[]} a at least two figures
 * @param {number[]} b at least two figures
 * @returns {{ meanA: number, meanB: number, difference: number, halfWidth: number }}
 * @throws {RangeError} when a sample has fewer than two figures or a non-finite one.
 */
export function meanDifference(a, b) {
  for (const sample of [a, b]) {
    if (!Array.isArray(sample) || sample.length < 2 || !sample.every(Number.isFinite)) {
      throw new RangeError("meanDifference: each sample needs at least two finite figures");
    }
  }
  const ma = moments(a);
  const mb = moments(b);
  const standardError = Math.sqrt(ma.share + mb.share);
  const freedom = standardError === 0 ? Number.POSITIVE_INFINITY : standardError ** 4 / (ma.share ** 2 / (a.length - 1) + mb.share ** 2 / (b.length - 1));
  return { meanA: ma.mean, meanB: mb.mean, difference: mb.mean - ma.mean, halfWidth: t975(freedom) * standardError };
}

/**
 * The mean of figures paired within rounds (one per round, such as build B's
 * CPU per call over build A's in the same round) with the half-width of its
 * 95 % confidence interval (Student's t, one degree of freedom fewer than
 * rounds). Pairing takes out what moves a whole round, which a difference of
 * two separate means ({@link meanDifference}) keeps.
 * @param {number[]} values at least two figures
 * @returns {{ mean: number, halfWidth: number }}
 * @throws {RangeError} when there are fewer than two figures or a non-finite one.
 */
export function pairedMean(values) {
  if (!Array.isArray(values) || values.length < 2 || !values.every(Number.isFinite)) {
    throw new RangeError("pairedMean: needs at least two finite figures");
  }
  const { mean, share } = moments(values);
  return { mean, halfWidth: t975(values.length - 1) * Math.sqrt(share) };
}
