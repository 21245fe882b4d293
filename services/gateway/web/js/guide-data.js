// The player's guide's worked examples: real hands with every card and every cent, as the engine
// settles them (tests/engine/test_guide_example.py plays each one through the engine and checks
// these figures). Each example is a plain JSON object between the markers, so the test can read it.

// A four-player hand: Ana deals, ante 6¢; Dev passes; Cleo knocks in, takes no trick and goes set.
export const EXAMPLE = /* JSON */ {
  "seats": ["Ana", "Ben", "Cleo", "Dev"],
  "dealer": "Ana",
  "ante": 6,
  "antes": { "Ana": 9, "Ben": 6, "Cleo": 6, "Dev": 6 },
  "pot": 27,
  "trickValue": 9,
  "trump": "9S",
  "keepTrump": false,
  "dealt": {
    "Ana": ["JH", "AC", "8D"],
    "Ben": ["AH", "8C", "7D"],
    "Cleo": ["QH", "7H", "9D"],
    "Dev": ["7C", "8H", "10D"]
  },
  "passes": ["Dev"],
  "discards": { "Ben": ["8C", "7D"] },
  "drawn": { "Ben": ["KS", "10C"] },
  "final": {
    "Ana": ["JH", "AC", "8D"],
    "Ben": ["AH", "KS", "10C"],
    "Cleo": ["QH", "7H", "9D"]
  },
  "tricks": [
    { "plays": [["Ben", "AH"], ["Cleo", "7H"], ["Ana", "JH"]], "winner": "Ben" },
    { "plays": [["Ben", "10C"], ["Cleo", "9D"], ["Ana", "AC"]], "winner": "Ana" },
    { "plays": [["Ana", "8D"], ["Ben", "KS"], ["Cleo", "QH"]], "winner": "Ben" }
  ],
  "tricksWon": { "Ana": 1, "Ben": 2, "Cleo": 0, "Dev": 0 },
  "payouts": { "Ana": 9, "Ben": 18, "Cleo": 0, "Dev": 0 },
  "penalties": { "Ana": 0, "Ben": 0, "Cleo": 27, "Dev": 0 },
  "delta": { "Ana": 0, "Ben": 12, "Cleo": -33, "Dev": -6 },
  "carry": 27,
  "next": {
    "dealer": "Ben",
    "antes": { "Ana": 0, "Ben": 3, "Cleo": 0, "Dev": 0 },
    "pot": 30,
    "trickValue": 10
  }
}; // end EXAMPLE

// Three players, ante 3¢: Ana keeps the Q♠ turned as trump, chooses Play and takes only one trick.
export const DOUBLE = /* JSON */ {
  "seats": ["Ana", "Ben", "Cleo"],
  "dealer": "Ana",
  "ante": 3,
  "antes": { "Ana": 6, "Ben": 3, "Cleo": 3 },
  "pot": 12,
  "trickValue": 4,
  "trump": "QS",
  "keepTrump": true,
  "dealt": {
    "Ana": ["9H", "9C", "10C"],
    "Ben": ["AH", "AC", "7D"],
    "Cleo": ["8H", "8C", "8D"]
  },
  "passes": [],
  "discards": {},
  "fourth": "10C",
  "facePlay": true,
  "final": {
    "Ana": ["9H", "9C", "QS"],
    "Ben": ["AH", "AC", "7D"],
    "Cleo": ["8H", "8C", "8D"]
  },
  "tricks": [
    { "plays": [["Ben", "AH"], ["Cleo", "8H"], ["Ana", "9H"]], "winner": "Ben" },
    { "plays": [["Ben", "AC"], ["Cleo", "8C"], ["Ana", "9C"]], "winner": "Ben" },
    { "plays": [["Ben", "7D"], ["Cleo", "8D"], ["Ana", "QS"]], "winner": "Ana" }
  ],
  "tricksWon": { "Ana": 1, "Ben": 2, "Cleo": 0 },
  "payouts": { "Ana": 4, "Ben": 8, "Cleo": 0 },
  "penalties": { "Ana": 24, "Ben": 0, "Cleo": 12 },
  "delta": { "Ana": -26, "Ben": 5, "Cleo": -15 },
  "carry": 36
}; // end DOUBLE
