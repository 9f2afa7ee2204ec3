// What the pages share: loading the module (or the message for a browser without WebGPU), and
// posting what a page found to the server it came from (scripts/web-probe.sh's; a static host
// refuses the POST, and the page keeps what it shows).
const NO_WEBGPU =
  "FAILED: this browser has no WebGPU (navigator.gpu is missing): use a browser with " +
  "WebGPU (Chromium, Chrome, Edge; Firefox and Safari where enabled), or the native app.\n";

export const post = (name, body) => fetch(name, { method: "POST", body }).catch(() => {});

// The module, ready; throws the page's message (a line starting "FAILED: ") where it cannot run.
export async function load() {
  if (!navigator.gpu) {
    throw NO_WEBGPU;
  }
  const m = await import("./pkg/boids_web.js");
  await m.default();
  return m;
}

// A failure as the report's line.
export const failed = (e) => (String(e).startsWith("FAILED: ") ? String(e) : "FAILED: " + e + "\n");
