/**
 * Questions about nothing a store of personal memories holds, for relevance's baseline: the best
 * cosine such a question gets in a namespace is what a match must beat there (src/recall/baseline.ts).
 * Not the evaluation's off-topic questions (eval/data/offtopic.json): those judge the result.
 */
export const PROBES: readonly string[] = [
  'How far is the Moon from the Earth?',
  'Which river flows through Vienna?',
  'How do bees make honey?',
  'What is the boiling point of mercury?',
  'Who painted the ceiling of the Sistine Chapel?',
  'How many strings does a cello have?',
  'What causes the northern lights?',
  'Which planet has the most moons?',
  'How is glass made from sand?',
  'What year did the first steam locomotive run?',
  'What is the tallest mountain in Africa?',
  'How does a lighthouse lens work?',
  'Which element has the atomic number 26?',
  'What is the plural of cactus?',
  'How long does light from the Sun take to reach us?',
  'Who invented the printing press?',
  'What do tectonic plates float on?',
  'How many squares are on a chessboard?',
  'What language do people speak in Suriname?',
  'Why do onions make people cry?',
  'What is the square root of 1764?',
  'How deep is the Mariana Trench?',
  'Which composer wrote the Four Seasons?',
  'What is a group of crows called?',
];
