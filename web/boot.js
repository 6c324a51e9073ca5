// Starts LeaseLab: loads Go's wasm_exec.js, then fetches, compiles and runs
// leaselab.wasm, keeping the loading indicator honest. It is an external
// file because the Content-Security-Policy forbids inline scripts.
//
// Each step leaves a performance mark "leaselab:<step>"; the Go side adds
// its own, and leaselab.timings() reports them all (see wasm/timing.go).
"use strict";

(() => {
  const mark = (name) => performance.mark("leaselab:" + name);
  mark("boot");
  const loading = document.getElementById("loading");
  const status = document.getElementById("loading-text");

  // Read once at startup; the Go side picks it up as State.ReducedMotion.
  globalThis.leaselabReducedMotion =
    window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  function fail(message) {
    loading.hidden = false;
    loading.classList.add("failed");
    status.textContent = "LeaseLab could not start: " + message;
  }

  async function start() {
    mark("exec-loaded");
    try {
      const go = new Go();
      mark("fetch");
      const response = await fetch("leaselab.wasm");
      mark("response");
      if (!response.ok) {
        throw new Error("leaselab.wasm: HTTP " + response.status + " (build it with: make wasm)");
      }
      status.textContent = "Compiling LeaseLab…";
      // Streaming: compiling starts while the bytes arrive (the server
      // sends application/wasm, which this needs).
      const { instance } = await WebAssembly.instantiateStreaming(response, go.importObject);
      mark("instantiated");
      // The size of the Go side's memory, which only grows: its peak
      // (leaselab.memory() reports it; make bench reads it).
      globalThis.leaselabMemory = () => instance.exports.mem.buffer.byteLength;
      status.textContent = "Starting LeaseLab…";
      mark("run");
      await go.run(instance);
    } catch (err) {
      fail(err && err.message ? err.message : String(err));
    }
  }

  const script = document.createElement("script");
  script.src = "wasm_exec.js";
  script.onload = start;
  script.onerror = () => fail("wasm_exec.js is missing (build it with: make wasm)");
  document.head.appendChild(script);
})();
