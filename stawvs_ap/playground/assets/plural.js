// A language's plural rule, from gettext's Plural-Forms header as the server
// sends it ("nplurals=3; plural=n % 10 == 1 && n % 100 != 11 ? 0 : …;"), made
// into a function without eval: the page's Content Security Policy forbids
// eval, and the rule is text from outside the script. The expression is C's
// (gettext's grammar: n, whole numbers, ( ), ! * / % + - < <= > >= == != && ||
// and ? :), parsed by precedence into a tree of closures; anything else in it
// is refused.

const MAX_LENGTH = 1000;
const MAX_DEPTH = 40;
const TOKEN = /\s*(\d+|n|&&|\|\||==|!=|<=|>=|[-+*/%<>!?:()])/y;
// The binary operators, loosest first: each level's operands are the next level's.
const LEVELS = [
  ["||"],
  ["&&"],
  ["==", "!="],
  ["<", "<=", ">", ">="],
  ["+", "-"],
  ["*", "/", "%"],
];
const truth = (value) => (value ? 1 : 0);
const OPERATORS = {
  "||": (a, b) => (n) => truth(a(n) || b(n)),
  "&&": (a, b) => (n) => truth(a(n) && b(n)),
  "==": (a, b) => (n) => truth(a(n) === b(n)),
  "!=": (a, b) => (n) => truth(a(n) !== b(n)),
  "<": (a, b) => (n) => truth(a(n) < b(n)),
  "<=": (a, b) => (n) => truth(a(n) <= b(n)),
  ">": (a, b) => (n) => truth(a(n) > b(n)),
  ">=": (a, b) => (n) => truth(a(n) >= b(n)),
  "+": (a, b) => (n) => a(n) + b(n),
  "-": (a, b) => (n) => a(n) - b(n),
  "*": (a, b) => (n) => a(n) * b(n),
  // Whole-number division, as in C; by zero, 0 rather than a fault.
  "/": (a, b) => (n) => (b(n) === 0 ? 0 : Math.trunc(a(n) / b(n))),
  "%": (a, b) => (n) => (b(n) === 0 ? 0 : a(n) % b(n)),
};

function tokens(text) {
  const found = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (!match) {
      if (/^\s*$/.test(text.slice(at))) break;
      throw new SyntaxError(`plural rule: unexpected ${JSON.stringify(text.slice(at, at + 10))}`);
    }
    found.push(match[1]);
  }
  return found;
}

// The function of n that the C expression `text` computes.
export function compile(text) {
  if (typeof text !== "string" || text.length > MAX_LENGTH) {
    throw new SyntaxError("plural rule: not a rule");
  }
  const list = tokens(text);
  let at = 0;
  let depth = 0;
  const peek = () => list[at];
  const take = (wanted) => {
    if (list[at] !== wanted) throw new SyntaxError(`plural rule: ${wanted} expected`);
    at += 1;
  };
  const deeper = () => {
    depth += 1;
    if (depth > MAX_DEPTH) throw new SyntaxError("plural rule: nested too deep");
  };

  function conditional() {
    deeper();
    const test = binary(0);
    let result = test;
    if (peek() === "?") {
      take("?");
      const yes = conditional();
      take(":");
      const no = conditional();
      result = (n) => (test(n) ? yes(n) : no(n));
    }
    depth -= 1;
    return result;
  }

  function binary(level) {
    if (level === LEVELS.length) return unary();
    let left = binary(level + 1);
    while (LEVELS[level].includes(peek())) {
      const operator = list[at];
      at += 1;
      left = OPERATORS[operator](left, binary(level + 1));
    }
    return left;
  }

  function unary() {
    const token = list[at];
    at += 1;
    if (token === "!") {
      deeper();
      const operand = unary();
      depth -= 1;
      return (n) => truth(!operand(n));
    }
    if (token === "n") return (n) => n;
    if (token !== undefined && /^\d+$/.test(token)) {
      const value = Number(token);
      return () => value;
    }
    if (token === "(") {
      const inner = conditional();
      take(")");
      return inner;
    }
    throw new SyntaxError(`plural rule: unexpected ${token === undefined ? "end" : token}`);
  }

  const rule = conditional();
  if (at !== list.length) throw new SyntaxError(`plural rule: unexpected ${list[at]}`);
  return rule;
}

// {count, form(n)} of a Plural-Forms header: the number of forms, and the
// index of the form for the whole number n (always one of them).
export function pluralRule(header) {
  const count = /nplurals\s*=\s*(\d+)/.exec(header ?? "");
  const expression = /plural\s*=\s*([^;]*)/.exec(header ?? "");
  if (!count || !expression || Number(count[1]) < 1) {
    throw new SyntaxError("plural rule: no nplurals and plural");
  }
  const forms = Number(count[1]);
  const rule = compile(expression[1]);
  return {
    count: forms,
    form: (n) => {
      const index = rule(Math.abs(Math.trunc(Number(n) || 0)));
      return index >= 0 && index < forms ? index : forms - 1;
    },
  };
}
