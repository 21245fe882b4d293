// What every page shares: the signed-in player, the socket and its status, the sound toggle.

import { createContext, useContext } from '../vendor/htm-preact-3.1.1.module.js';

export const App = createContext(null);
export const useApp = () => useContext(App);

export function go(path) {
  if (location.hash !== `#${path}`) location.hash = path;
}
