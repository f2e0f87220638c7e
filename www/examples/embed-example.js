// The host side of embedding askdb (see docs/embed.md).

// 1. Each askdb frame says how tall its content is: size the frame to it, so it never scrolls.
window.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'askdb:height' || !Number.isFinite(data.height)) return;
  for (const frame of document.querySelectorAll('iframe')) {
    if (frame.contentWindow === event.source) frame.style.height = `${Math.ceil(data.height)}px`;
  }
});

