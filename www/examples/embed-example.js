// The host side of embedding askdb (see docs/embed.md).

// 1. Each askdb frame says how tall its content is: size the frame to it, so it never scrolls.
window.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'askdb:height' || !Number.isFinite(data.height)) return;
  for (const frame of document.querySelectorAll('iframe')) {
    if (frame.contentWindow === event.source) frame.style.height = `${Math.ceil(data.height)}px`;
  }
});

// 2. A frame whose recorded conversation (its `replay=` file) is not published yet still
//    works: the question is filled in, for a reader with a key. Say so under it, rather than
//    leave the reader waiting for an answer that will not play.
for (const frame of document.querySelectorAll('iframe[src*="replay="]')) {
  const address = new URL(frame.src, document.baseURI);
  const recording = new URL(address.searchParams.get('replay'), address);
  const missing = () => {
    const note = document.createElement('p');
    note.className = 'replay-missing';
    note.dataset.testid = 'replay-missing';
    note.textContent =
      `The recorded answer (${recording.pathname.split('/').pop()}) is not published yet: ` +
      'the question is filled in, and you can ask it with your own key (Settings).';
    frame.after(note);
  };
  fetch(recording, { method: 'HEAD' })
    .then((response) => response.ok || missing())
    .catch(missing);
}
