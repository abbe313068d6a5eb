// A self-contained, human-readable API reference rendered from the OpenAPI document: no
// scripts, no CDN, so it works offline and behind strict networks.
import type { OpenAPIObject } from 'trpc-to-openapi';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function inline(markdown: string): string {
  return escapeHtml(markdown)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*]+)\*/g, '<em>$1</em>');
}

function markdownBlock(text: string): string {
  return text
    .split(/\n\n+/)
    .map((block) => {
      const lines = block.split('\n');
      if (lines.every((l) => l.startsWith('|'))) {
        const rows = lines
          .filter((l) => !/^\|[-| ]+\|$/.test(l))
          .map((l) =>
            l
              .slice(1, -1)
              .split('|')
              .map((c) => inline(c.trim())),
          );
        const [head, ...body] = rows;
        return `<table><tr>${head!.map((c) => `<th>${c}</th>`).join('')}</tr>${body.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</table>`;
      }
      return `<p>${inline(block)}</p>`;
    })
    .join('\n');
}

function resolve(doc: OpenAPIObject, schema: unknown): unknown {
  const ref = (schema as { $ref?: string } | undefined)?.$ref;
  if (!ref) return schema;
  return doc.components?.schemas?.[ref.split('/').pop()!];
}

function schemaBlock(doc: OpenAPIObject, schema: unknown): string {
  return `<pre>${escapeHtml(JSON.stringify(resolve(doc, schema), null, 2))}</pre>`;
}

export function renderDocsPage(doc: OpenAPIObject): string {
  type Operation = {
    summary?: string;
    description?: string;
    tags?: string[];
    'x-auth'?: string;
    parameters?: { name: string; in: string; required?: boolean; schema?: unknown; description?: string }[];
    requestBody?: { content?: Record<string, { schema?: unknown }> };
    responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
  };
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      const tag = op.tags?.[0] ?? 'other';
      const params = (op.parameters ?? [])
        .map(
          (p) =>
            `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}</td><td>${p.required ? 'yes' : 'no'}</td><td>${inline(p.description ?? '')} <code>${escapeHtml(JSON.stringify(p.schema ?? {}))}</code></td></tr>`,
        )
        .join('');
      const body = op.requestBody?.content?.['application/json']?.schema;
      const responses = Object.entries(op.responses ?? {})
        .map(
          ([status, r]) =>
            `<details><summary><strong>${status}</strong> ${inline(r.description ?? '')}</summary>${r.content?.['application/json']?.schema ? schemaBlock(doc, r.content['application/json'].schema) : ''}</details>`,
        )
        .join('');
      const html = `<section class="op" id="${escapeHtml(method + path)}">
<h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code> <span class="auth">${escapeHtml(op['x-auth'] ?? 'public')}</span></h3>
<p>${inline(op.summary ?? '')}</p>${op.description ? markdownBlock(op.description) : ''}
${params ? `<table><tr><th>parameter</th><th>in</th><th>required</th><th>schema</th></tr>${params}</table>` : ''}
${body ? `<h4>Request body</h4>${schemaBlock(doc, body)}` : ''}
<h4>Responses</h4>${responses}</section>`;
      byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
    }
  }
  const nav = [...byTag.keys()].map((t) => `<a href="#tag-${escapeHtml(t)}">${escapeHtml(t)}</a>`).join(' · ');
  const sections = [...byTag.entries()]
    .map(([tag, ops]) => `<h2 id="tag-${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${ops.join('\n')}`)
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(doc.info.title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}code,pre{font:13px ui-monospace,monospace}pre{background:#f4f4f4;padding:.5rem;overflow:auto}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}.op{border-top:1px solid #ddd;padding:.5rem 0}
.m{display:inline-block;min-width:4.5rem;text-align:center;color:#fff;border-radius:3px;padding:0 .3rem;font-size:13px}.get{background:#2f6f3e}.post{background:#2a5a9a}.put{background:#8a5a00}.patch{background:#6b4a9a}.delete{background:#a33}
.auth{font-size:12px;border:1px solid #999;border-radius:3px;padding:0 .3rem;color:#555}</style></head><body>
<h1>${escapeHtml(doc.info.title)} <small>${escapeHtml(doc.info.version)}</small></h1>
<p>Machine-readable document: <a href="/api/openapi.json"><code>/api/openapi.json</code></a></p>
${markdownBlock(doc.info.description ?? '')}
<nav>${nav}</nav>
${sections}
</body></html>`;
}
