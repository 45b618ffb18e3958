// Each bench reports every measured goal through `reportGoal`: a readable line now, and a marked JSON line
// that scripts/bench.mjs collects into the one table it prints at the end of `npm run bench`.

/** The prefix of the lines scripts/bench.mjs collects (it keeps them out of the readable output). */
export const GOAL_LINE_PREFIX = '##bench-goal ';

export interface GoalResult {
  /** What was measured, e.g. "tools/call 7 MiB, host vs bare SDK client". */
  name: string;
  /** The measured value: a ratio against a baseline of the same run, or an absolute value in `unit`. */
  value: number;
  /** The goal the value must not exceed (`strict`: must stay under). */
  goal: number;
  /** 'x' for a ratio, else the unit of `value` and `goal` ('ms', 'MiB', 'KB'). */
  unit: string;
  strict?: boolean;
  /** The numbers behind the value, in words (medians, run counts). */
  detail?: string;
}

export function goalMet(r: GoalResult): boolean {
  return r.strict ? r.value < r.goal : r.value <= r.goal;
}

export function formatValue(value: number, unit: string): string {
  if (unit === 'x') return `${value.toFixed(2)}x`;
  return `${value.toFixed(value < 10 ? 1 : 0)} ${unit}`;
}

export function reportGoal(r: GoalResult): boolean {
  const ok = goalMet(r);
  console.log(
    `${r.name}: ${formatValue(r.value, r.unit)} (goal ${r.strict ? '<' : '<='} ${formatValue(r.goal, r.unit)}) ${ok ? 'ok' : 'OVER GOAL'}${r.detail ? ` (${r.detail})` : ''}`,
  );
  console.log(`${GOAL_LINE_PREFIX}${JSON.stringify(r)}`);
  return ok;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
