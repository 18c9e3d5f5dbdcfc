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
