// The engine-made fixtures of the node tests (tests/web/fixtures/, written by make_*.py): the
// committed file, or a fresh one whose path a Python test puts in the environment.

import { readFileSync } from 'node:fs';

export function readFixture(name, variable = '') {
  const path = (variable && process.env[variable]) || new URL(`./fixtures/${name}`, import.meta.url);
  return JSON.parse(readFileSync(path, 'utf8'));
}
