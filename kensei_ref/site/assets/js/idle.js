// Work that can wait: after the page has loaded, when the browser is idle, in short slices.
//
// A phone's main thread draws the page and answers taps; a script that runs for more than 50 ms
// keeps the reader's first tap waiting (Lighthouse counts it as blocking time). Work a reader does
// not need at once (registering the offline copy, the digest's QR codes, marking wide tables) is
// started here after the load event, in the browser's idle time, and work over many elements is cut
// into slices of a few milliseconds, each in its own task.
//
// window.krIdle(callback) runs callback once the page has loaded and the browser is idle (two
// seconds at most after the load); window.krIdle.each(items, work) calls work(item) for each item,
// a slice at a time, and resolves once all are done.
(() => {
  "use strict";
  const SLICE_MS = 8; // below Lighthouse's 50 ms at its 4x slowdown of the processor
  const WAIT_MS = 2000; // the longest a busy page delays the work

  const idle = window.requestIdleCallback
    ? (callback) => window.requestIdleCallback(callback, { timeout: WAIT_MS })
    : (callback) => setTimeout(() => callback({ timeRemaining: () => SLICE_MS, didTimeout: true }), 50);

  const loaded = new Promise((resolve) => {
    if (document.readyState === "complete") resolve();
    else window.addEventListener("load", () => resolve(), { once: true });
  });

  /** Calls callback(deadline) once the page has loaded and the browser is idle. */
  function krIdle(callback) {
    loaded.then(() => idle(callback));
  }

  /** Calls work(item) for each item in slices of a few milliseconds, each slice in an idle period. */
  krIdle.each = (items, work) => new Promise((resolve) => {
    const queue = Array.from(items);
    let next = 0;
    const slice = (deadline) => {
      const end = performance.now() + Math.min(SLICE_MS, Math.max(1, deadline.timeRemaining()));
      do {
        if (next < queue.length) work(queue[next]);
        next += 1;
      } while (next < queue.length && performance.now() < end); // one item at least, then until the slice ends
      if (next < queue.length) idle(slice);
      else resolve();
    };
    krIdle(slice);
  });

  window.krIdle = krIdle;
})();
