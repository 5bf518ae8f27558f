/**
 * The marketplace page's inline style and script (marketplace-page.ts). Both are constants, so
 * the page's Content-Security-Policy can allow exactly them by hash and nothing else: no external
 * asset, no inline event handler, no plugin-supplied markup can run, and the page works from
 * file:// as well as over HTTP.
 */

export const MARKETPLACE_STYLE = `
:root{--bg:#f6f7f9;--card:#fff;--ink:#1b1f24;--muted:#5b6470;--line:#dde1e6;--accent:#2856d6;
--accent-soft:#e8eefc;--code:#f1f3f6;--warn:#9a5b00;--warn-soft:#fff4e0;--bad:#b42318;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,Ubuntu,sans-serif;color:var(--ink);background:var(--bg)}
@media (prefers-color-scheme:dark){:root{--bg:#0f1216;--card:#171b21;--ink:#e6e9ee;--muted:#9aa4b1;
--line:#2a3039;--accent:#7aa2ff;--accent-soft:#1d2740;--code:#11151a;--warn:#f0b45a;--warn-soft:#2d2414;--bad:#ff8a80}}
*{box-sizing:border-box}
body{margin:0;line-height:1.5}
.wrap{max-width:980px;margin:0 auto;padding:0 20px}
header.top{background:var(--card);border-bottom:1px solid var(--line);padding:28px 0 22px}
.brand{font-size:13px;letter-spacing:.08em;text-transform:uppercase;color:var(--muted);font-weight:600}
.brand b{color:var(--accent)}
h1{margin:4px 0 6px;font-size:30px}
.lede{margin:0;color:var(--muted)}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
code{background:var(--code);border:1px solid var(--line);border-radius:5px;padding:1px 5px;overflow-wrap:anywhere}
.controls{position:sticky;top:0;z-index:1;background:var(--bg);padding:18px 0 10px}
#q{width:100%;font:inherit;font-size:16px;padding:10px 14px;border:1px solid var(--line);border-radius:10px;
background:var(--card);color:var(--ink)}
#q:focus{outline:2px solid var(--accent);outline-offset:1px}
.chips{display:flex;flex-wrap:wrap;gap:8px;margin:12px 0 6px;padding:0}
.chip{font:inherit;font-size:13px;border:1px solid var(--line);background:var(--card);color:var(--ink);
border-radius:999px;padding:4px 12px;cursor:pointer}
.chip .n{color:var(--muted);margin-left:4px}
.chip[aria-pressed=true]{background:var(--accent);border-color:var(--accent);color:#fff}
.chip[aria-pressed=true] .n{color:#fff;opacity:.8}
#count{margin:4px 0 0;color:var(--muted);font-size:14px}
.plugins{list-style:none;margin:8px 0 40px;padding:0;display:grid;grid-template-columns:minmax(0,1fr);gap:14px}
.plugin[hidden],#empty[hidden]{display:none}
.plugin,.plugin article{min-width:0}
.plugin article{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:18px 20px}
.head{display:flex;align-items:baseline;gap:10px;flex-wrap:wrap}
.head h2{margin:0;font-size:20px}
.ver{color:var(--muted);font-size:14px}
.tag{font-size:12px;border-radius:6px;padding:1px 7px}
.tag.deprecated{background:var(--warn-soft);color:var(--warn)}
.desc{margin:6px 0 10px}
.events,.keywords{list-style:none;display:flex;flex-wrap:wrap;gap:6px;margin:0 0 8px;padding:0}
.ev{background:var(--accent-soft);color:var(--accent);font-size:12px;font-weight:600;border-radius:6px;padding:2px 8px}
.keywords li{color:var(--muted);font-size:13px}
.keywords li::before{content:"#"}
.install{display:flex;align-items:center;gap:8px;margin:10px 0 4px;flex-wrap:wrap}
.about{margin:0 0 8px;color:var(--muted);font-size:14px;overflow-wrap:anywhere}
.about a{color:var(--accent)}
.install pre.commands{margin:0;flex:1 1 16em;min-width:0;background:var(--code);border:1px solid var(--line);
border-radius:8px;padding:6px 10px;white-space:pre-wrap;overflow-wrap:anywhere}
.install pre.commands code{display:block;background:none;border:0;padding:0;font-size:14px}
@media (max-width:560px){.install pre.commands{flex-basis:100%}.wrap{padding:0 14px}.plugin article{padding:14px}}
.copy{font:inherit;font-size:13px;border:1px solid var(--accent);color:var(--accent);background:transparent;
border-radius:7px;padding:4px 12px;cursor:pointer}
.copy:hover{background:var(--accent-soft)}
details.surface{margin-top:10px;border-top:1px solid var(--line);padding-top:10px}
summary{cursor:pointer;font-weight:600;color:var(--accent)}
.note{color:var(--muted);font-size:14px;margin:8px 0}
.hook{border:1px solid var(--line);border-radius:10px;padding:10px 12px;margin:10px 0}
.hook.invalid{border-color:var(--bad)}
.hook .row{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center;font-size:14px}
.hook .row>span{min-width:0;max-width:100%}
.hook .k{color:var(--muted)}
.hook pre{background:var(--code);border:1px solid var(--line);border-radius:8px;padding:8px 10px;margin:8px 0 4px;
white-space:pre-wrap;overflow-wrap:anywhere}
.problem{color:var(--bad);font-size:14px;margin:4px 0 0}
table.versions{border-collapse:collapse;width:100%;font-size:14px;margin:6px 0}
table.versions th,table.versions td{text-align:left;border-bottom:1px solid var(--line);padding:6px 8px;vertical-align:top;
overflow-wrap:anywhere}
table.versions th{color:var(--muted);font-weight:600}
h3{font-size:15px;margin:16px 0 4px}
details.older{margin:8px 0}
details.older summary{font-weight:500}
#empty{text-align:center;color:var(--muted);padding:30px 0}
footer{color:var(--muted);font-size:13px;padding:10px 0 40px}
`;

export const MARKETPLACE_SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById('marketplace-data').textContent);
  var search = document.getElementById('q');
  var chips = Array.prototype.slice.call(document.querySelectorAll('.chip'));
  var count = document.getElementById('count');
  var empty = document.getElementById('empty');
  var event = '';
  function apply() {
    var words = search.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var shown = 0;
    data.plugins.forEach(function (p) {
      var ok = (event === '' || p.events.indexOf(event) !== -1) &&
        words.every(function (w) { return p.text.indexOf(w) !== -1; });
      document.getElementById('plugin-' + p.name).hidden = !ok;
      if (ok) shown += 1;
    });
    count.textContent = shown + ' of ' + data.plugins.length + ' plugins' + (event ? ' hooking ' + event : '');
    empty.hidden = shown !== 0;
  }
  chips.forEach(function (chip) {
    chip.addEventListener('click', function () {
      event = chip.getAttribute('data-event');
      chips.forEach(function (c) { c.setAttribute('aria-pressed', String(c === chip)); });
      apply();
    });
  });
  search.addEventListener('input', apply);
  // The registry is where this page is: its directory's URL, shell-quoted when it must be.
  var here = location.href.split('#')[0].split('?')[0];
  var url = here.slice(0, here.lastIndexOf('/') + 1);
  if (!/^[A-Za-z0-9_\\/:.@%+=,~-]+$/.test(url)) url = "'" + url.replace(/'/g, "'\\\\''") + "'";
  function withUrl(text) { return text.split(data.urlPlaceholder).join(url); }
  Array.prototype.forEach.call(document.querySelectorAll('code.add-registry'), function (code) {
    code.textContent = withUrl(code.textContent);
  });
  Array.prototype.forEach.call(document.querySelectorAll('.copy'), function (button) {
    button.setAttribute('data-copy', withUrl(button.getAttribute('data-copy')));
  });
  function copied(button) {
    var label = button.textContent;
    button.textContent = 'Copied';
    setTimeout(function () { button.textContent = label; }, 1500);
  }
  function fallbackCopy(text, button) {
    var area = document.createElement('textarea');
    area.value = text;
    document.body.appendChild(area);
    area.select();
    try { document.execCommand('copy'); copied(button); } finally { area.remove(); }
  }
  Array.prototype.forEach.call(document.querySelectorAll('.copy'), function (button) {
    button.addEventListener('click', function () {
      var text = button.getAttribute('data-copy');
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(function () { copied(button); },
          function () { fallbackCopy(text, button); });
      } else {
        fallbackCopy(text, button);
      }
    });
  });
  function openFromHash() {
    var target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    var details = target ? target.querySelector('details.surface') : null;
    if (details) { details.open = true; target.scrollIntoView(); }
  }
  window.addEventListener('hashchange', openFromHash);
  openFromHash();
  apply();
})();
`;
