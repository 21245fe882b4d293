// The rules page: the player's guide (js/pages/guide.js) at #/rules, and one click away at
// #/rules/exact, SWICK_RULES.md as the server enforces it, fetched from /rules.md and drawn
// with js/markdown.js (no HTML is injected).

import { html, useEffect, useState } from '../../vendor/htm-preact-3.1.1.module.js';
import { api } from '../api.js';
import { inline, parseMarkdown, slug } from '../markdown.js';
import { GuidePage } from './guide.js';

function Inline({ text }) {
  return inline(text).map((span) => {
    switch (span.type) {
      case 'strong':
        return html`<strong>${span.text}</strong>`;
      case 'em':
        return html`<em>${span.text}</em>`;
      case 'code':
        return html`<code>${span.text}</code>`;
      case 'link':
        return /^(https?:|#)/.test(span.href) ? html`<a href=${span.href}>${span.text}</a>` : span.text;
      default:
        return span.text;
    }
  });
}

function List({ items }) {
  // Items carry a depth; nest them.
  const root = [];
  const stack = [{ depth: -1, children: root }];
  for (const item of items) {
    while (stack.length > 1 && stack[stack.length - 1].depth >= item.depth) stack.pop();
    const node = { depth: item.depth, text: item.text, children: [] };
    stack[stack.length - 1].children.push(node);
    stack.push(node);
  }
  const draw = (nodes) => html`<ul>
    ${nodes.map((node) => html`<li><${Inline} text=${node.text} />${node.children.length ? draw(node.children) : null}</li>`)}
  </ul>`;
  return draw(root);
}

function Block({ block }) {
  switch (block.type) {
    case 'heading': {
      const level = Math.min(6, block.level);
      const Tag = `h${level}`;
      return html`<${Tag} id=${slug(block.text)}><${Inline} text=${block.text} /><//>`;
    }
    case 'list':
      return html`<${List} items=${block.items} />`;
    case 'table':
      return html`<div class="table-scroll"><table class="rules-table">
        <thead><tr>${block.head.map((cell) => html`<th scope="col"><${Inline} text=${cell} /></th>`)}</tr></thead>
        <tbody>${block.rows.map((row) => html`<tr>${row.map((cell) => html`<td><${Inline} text=${cell} /></td>`)}</tr>`)}</tbody>
      </table></div>`;
    case 'code':
      return html`<pre><code>${block.text}</code></pre>`;
    default:
      return html`<p><${Inline} text=${block.text} /></p>`;
  }
}

export function RulesPage({ exact = false }) {
  return exact ? html`<${ExactRules} />` : html`<${GuidePage} />`;
}

function ExactRules() {
  const [state, setState] = useState({ blocks: null, error: '' });
  useEffect(() => {
    api
      .rules()
      .then((text) => setState({ blocks: parseMarkdown(text), error: '' }))
      .catch((e) => setState({ blocks: null, error: e.message }));
  }, []);
  const sections = (state.blocks || []).filter((b) => b.type === 'heading' && b.level === 2);
  return html`<main id="main" class="rules" tabindex="-1">
    <p class="guide-back"><a href="#/rules">← How to play Swick (the player's guide)</a></p>
    ${state.error ? html`<p class="error" role="alert">${state.error}</p>` : null}
    ${!state.blocks && !state.error ? html`<p>Loading the rules…</p>` : null}
    ${state.blocks
      ? html`<div class="rules-layout">
          <nav class="panel toc" aria-label="Rules sections">
            <h2>Sections</h2>
            <ol>${sections.map((s) => html`<li><a href=${`#/rules/exact`} onClick=${(e) => {
              e.preventDefault();
              const target = document.getElementById(slug(s.text));
              if (target) target.scrollIntoView({ behavior: 'smooth' });
            }}>${s.text}</a></li>`)}</ol>
          </nav>
          <article class="panel rules-text">${state.blocks.map((block) => html`<${Block} block=${block} />`)}</article>
        </div>`
      : null}
  </main>`;
}
