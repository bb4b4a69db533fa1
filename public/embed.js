/*
 * embed.js — resizes ln-explorable figure iframes on a host page (a blog post, a course page).
 *
 * Usage: put the iframe(s) a figure's "Embed" box gives you on the page, and this script once:
 *   <iframe src="https://…/?embed=fig2&lang=en&theme=light" data-lnx-embed …></iframe>
 *   <script async src="https://…/embed.js"></script>
 *
 * It listens for {type:'lnx:height', v:1, figure, height, state} from an iframe marked
 * data-lnx-embed, accepts it only when the message comes from that iframe's window and from the
 * origin of its src, and sets the iframe's height. Anything else is ignored.
 * lnxEmbed.setTheme('dark') sends {type:'lnx:theme', v:1, theme} to every embedded figure, e.g.
 * from the host's own theme switch. No dependencies, no cookies, no network requests of its own.
 * Protocol: docs/sharing.md.
 */
(function () {
  'use strict';
  if (window.lnxEmbed) return; // loaded twice

  var MIN = 40;
  var MAX = 20000;

  function frames() {
    return Array.prototype.slice.call(document.querySelectorAll('iframe[data-lnx-embed]'));
  }
  function originOf(frame) {
    try {
      return new URL(frame.src, location.href).origin;
    } catch (e) {
      return null;
    }
  }
  function isHeightMessage(d) {
    return (
      d !== null &&
      typeof d === 'object' &&
      d.type === 'lnx:height' &&
      d.v === 1 &&
      typeof d.height === 'number' &&
      isFinite(d.height) &&
      d.height >= MIN &&
      d.height <= MAX &&
      /^fig[1-9][0-9]*$/.test(String(d.figure))
    );
  }

  window.addEventListener('message', function (ev) {
    if (!isHeightMessage(ev.data)) return;
    var list = frames();
    for (var i = 0; i < list.length; i++) {
      var f = list[i];
      if (f.contentWindow !== ev.source) continue;
      if (originOf(f) !== ev.origin) return;
      var h = Math.ceil(ev.data.height) + 'px';
      if (f.style.height !== h) f.style.height = h;
      f.setAttribute('data-lnx-state', String(ev.data.state).replace(/[^a-z]/g, '').slice(0, 16));
      return;
    }
  });

  /** The frame holds the figure's page: a frame still loading holds about:blank of this page's
   *  origin, and a message sent to it with the figure's origin makes the browser log a warning
   *  (the figure reports its height by itself once it has loaded). */
  function loaded(f, o) {
    try {
      var href = f.contentWindow.location.href;
      return href !== 'about:blank' && new URL(href).origin === o;
    } catch (e) {
      return true; // another origin's page is there: the figure's
    }
  }
  function post(f, msg) {
    var o = originOf(f);
    if (o && f.contentWindow && loaded(f, o)) f.contentWindow.postMessage(msg, o);
  }

  window.lnxEmbed = {
    /** Switch every embedded figure to 'light' or 'dark'. */
    setTheme: function (theme) {
      if (theme !== 'light' && theme !== 'dark') return;
      frames().forEach(function (f) {
        post(f, { type: 'lnx:theme', v: 1, theme: theme });
      });
    },
    /** Ask every embedded figure to report its height again. */
    refresh: function () {
      frames().forEach(function (f) {
        post(f, { type: 'lnx:request-height', v: 1 });
      });
    },
  };
  // frames that loaded before this script: ask them for their height
  window.lnxEmbed.refresh();
})();
