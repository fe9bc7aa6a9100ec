// Numbers as the build writes them (kensei_ref/numbers.py, with Babel), for the figures a page
// recomputes in the browser. The browser cannot run Babel, and Intl.NumberFormat does not write what
// it writes (Chromium's French percent has a narrow no-break space where Babel's has a no-break one,
// its minus is a hyphen, and it rounds a float's exact binary value, so 6.25 % may become 6.3 %); so
// the page carries its language's facts from Babel (Numbers.symbols(): separators, signs, digit
// groups, the percent's prefix and suffix) and this script joins the digits with them.
//
// Rounding is Babel's: the value's shortest decimal text (Python's str and JavaScript's String give
// the same digits) rounded half to even. That is done here on the text's digits, as written: Intl
// does the same when it is given the text and roundingMode "halfEven", but making one of its
// formatters costs a phone's processor about 60 ms, a pause the reader feels, for each kind of number
// a page writes. Intl is kept for what the text cannot say in digits (an infinite value).
//
// window.krNumbers(symbols) gives { decimal(value, digits = 2), percent(value, digits),
// signed(value, digits = 2), quantity(value, symbol, digits = 1) }, the methods of Numbers.
(() => {
  "use strict";

  /** The value's digits, rounded as Babel rounds, in en-US: "-1234.50", "12.50" (a percent, scaled). */
  function roundedDigits(value, digits, percent) {
    if (!Number.isFinite(value)) return intlDigits(value, digits, percent);
    const text = Object.is(value, -0) ? "-0" : String(value); // Python's str(-0.0) keeps its sign
    const negative = text.startsWith("-");
    const [mantissa, exponent = "0"] = text.slice(negative ? 1 : 0).split("e"); // "1e-7", "1.5e+21"
    const [whole, fraction = ""] = mantissa.split(".");
    let figures = whole + fraction;
    let point = whole.length + Number(exponent) + (percent ? 2 : 0); // where the decimal point falls
    if (point < 1) {
      figures = "0".repeat(1 - point) + figures;
      point = 1;
    }
    figures = figures.padEnd(point + digits, "0");
    const kept = figures.slice(0, point + digits);
    const dropped = figures.slice(point + digits); // "" when nothing is rounded away
    const pastHalf = /[1-9]/.test(dropped.slice(1));
    const roundUp = dropped[0] > "5" || (dropped[0] === "5" && (pastHalf || Number(kept.at(-1)) % 2 === 1));
    const rounded = roundUp ? increment(kept) : kept;
    const wholePart = rounded.slice(0, rounded.length - digits).replace(/^0+(?=\d)/, "");
    const sign = negative ? "-" : "";
    return digits ? `${sign}${wholePart}.${rounded.slice(rounded.length - digits)}` : sign + wholePart;
  }

  /** A string of decimal digits plus one in its last place: "0999" gives "1000", "99" gives "100". */
  function increment(figures) {
    const digits = figures.split("");
    let at = digits.length - 1;
    while (at >= 0 && digits[at] === "9") {
      digits[at] = "0";
      at -= 1;
    }
    if (at < 0) digits.unshift("1");
    else digits[at] = String(Number(digits[at]) + 1);
    return digits.join("");
  }

  const digitFormats = new Map();
  function intlDigits(value, digits, percent) {
    const key = `${digits}:${percent}`;
    if (!digitFormats.has(key)) {
      digitFormats.set(key, new Intl.NumberFormat("en-US", {
        style: percent ? "percent" : "decimal", useGrouping: false, roundingMode: "halfEven",
        minimumFractionDigits: digits, maximumFractionDigits: digits,
      }));
    }
    return digitFormats.get(key).format(value).replace("%", "");
  }

  /** Groups of digits from the right, the first of grouping[0] digits, the others of grouping[1]. */
  function grouped(whole, grouping, separator) {
    let size = grouping[0];
    let tail = "";
    while (whole.length > size) {
      tail = separator + whole.slice(-size) + tail;
      whole = whole.slice(0, -size);
      size = grouping[1];
    }
    return whole + tail;
  }

  function numbersFor(symbols) {
    /** A number with between `least` and `most` decimals: [sign, digits as the locale writes them]. */
    function parts(value, least, most, percent) {
      const text = roundedDigits(value, most, percent);
      const negative = text.startsWith("-");
      const [whole, fraction = ""] = text.replace("-", "").split(".");
      let kept = fraction;
      while (kept.length > least && kept.endsWith("0")) kept = kept.slice(0, -1);
      const number = grouped(whole, symbols.grouping, symbols.group) + (kept ? symbols.decimal + kept : "");
      return [negative ? symbols.minus : "", number];
    }
    const decimal = (value, digits = 2) => parts(value, 0, digits, false).join("");
    return {
      decimal,
      percent(value, digits = symbols.percent_digits) {
        const [sign, number] = parts(value, 0, digits, true);
        return sign + symbols.percent_prefix + number + symbols.percent_suffix;
      },
      signed(value, digits = 2) {
        if (value === 0) return decimal(0);
        return (value > 0 ? symbols.plus : "") + decimal(value, digits);
      },
      quantity(value, symbol, digits = 1) {
        return decimal(value, digits) + symbols.unit_space + symbol;
      },
    };
  }

  window.krNumbers = numbersFor;
})();
