// The engine-made fixtures of the node tests (tests/web/fixtures/, written by make_*.py): the
// committed file, or a fresh one whose path a Python test puts in the environment.

import { readFileSync } from 'node:fs';

export function readFixture(name, variable = '') {
  const path = (variable && process.env[variable]) || new URL(`./fixtures/${name}`, import.meta.url);
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** A game's fixture (`readFixture`'s arguments) with its views: `steps` as seat 0 and a spectator
 * see each one, and `views`, seat 0's alone. */
export function gameFixture(name, variable) {
  const data = readFixture(name, variable);
  return { data, steps: data.views, views: data.views.map((s) => s.seat0) };
}

// The clock the views are derived at, and the suits' numbers (♣ 0, ♦ 1, ♥ 2, ♠ 3).
export const NOW = 1_700_000_000_000;
export const SUIT = { C: 0, D: 1, H: 2, S: 3 };
