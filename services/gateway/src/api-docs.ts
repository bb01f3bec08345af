import { ADMIN_COOKIE, PILOT_COOKIE } from '@crewswap/kit';
import { openApiDocument } from '@crewswap/proto/openapi';
import type { FastifyInstance } from 'fastify';
import { API_DOCS_PATH, OPENAPI_PATH } from './route-table';


/** The API reference the gateway serves and docs/openapi.json holds (npm run openapi writes it). */
export function apiDocument(): Record<string, unknown> {
  return openApiDocument({ cookies: { pilot: PILOT_COOKIE, admin: ADMIN_COOKIE } });
}

/** docs/openapi.json's exact text: a test compares it with a fresh build, so a changed API shows in review. */
export function apiDocumentText(): string {
  return `${JSON.stringify(apiDocument(), null, 2)}\n`;
}

/** /api/docs (a page to read) and /api/docs/openapi.json (for tools), answered by the gateway itself. */
export function registerApiDocs(app: FastifyInstance): void {
  let text: string | undefined;
  let page: string | undefined;
  // Built on first request: the document costs some milliseconds the gateway's start need not pay.
  const documentText = () => (text ??= apiDocumentText());
  app.get(OPENAPI_PATH, (_request, reply) => reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(documentText()));
  app.get(API_DOCS_PATH, (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send((page ??= renderApiDocs(JSON.parse(documentText()) as OpenApi))),
  );
}

interface Operation {
  operationId: string;
  summary: string;
  tags: string[];
  security: Record<string, unknown>[];
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
}
interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: unknown;
}
interface OpenApi {
  info: { title: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; parameters?: Record<string, Parameter> };
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A schema as JSON (on one line when short), its references made links to the schema they name; a bare reference is just the link. */
function schemaHtml(schema: unknown): string {
  const link = (text: string) => text.replace(/&quot;#\/components\/schemas\/(\w+)&quot;/g, '<a href="#schema-$1">$1</a>');
  const only = schema && typeof schema === 'object' && Object.keys(schema).length === 1 ? (schema as { $ref?: unknown }).$ref : undefined;
  if (typeof only === 'string') return link(escape(JSON.stringify(only)));
  const short = JSON.stringify(schema);
  return link(escape(short.length <= 100 ? short : JSON.stringify(schema, null, 2)));
}

/**
 * The reference as one plain HTML page: no script (the gateway's CSP allows none inline) and
 * nothing fetched from elsewhere, so it reads the same offline.
 */
export function renderApiDocs(doc: OpenApi): string {
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })));
  const tags = [...new Set(operations.map(({ operation }) => operation.tags[0]!))];
  const who = (operation: Operation) => Object.keys(operation.security[0] ?? {})[0]?.replace(/Session$/, '') ?? 'anyone';
  const section = (tag: string) =>
    `<h2 id="tag-${escape(tag)}">${escape(tag)}</h2>\n` +
    operations
      .filter(({ operation }) => operation.tags[0] === tag)
      .map(({ path, method, operation }) => {
        const parameters = (operation.parameters ?? [])
          // A shared parameter (Idempotency-Key) is written once, under components.
          .map((parameter) => ('$ref' in parameter ? doc.components.parameters![parameter.$ref.split('/').pop()!]! : parameter))
          .map((parameter) => `<li><code>${escape(parameter.name)}</code> (${parameter.in}${parameter.required ? ', required' : ''}): <code>${schemaHtml(parameter.schema)}</code></li>`)
          .join('');
        const body = Object.entries(operation.requestBody?.content ?? {})
          .map(([type, { schema }]) => `<p>Body (${escape(type)}): <code>${schemaHtml(schema)}</code></p>`)
          .join('');
        const answers = Object.entries(operation.responses)
          .map(([status, answer]) => {
            const content = Object.entries(answer.content ?? {})
              .map(([type, { schema }]) => `, ${escape(type)}: <code>${schemaHtml(schema)}</code>`)
              .join('');
            return `<li>${escape(status)}: ${escape(answer.description)}${content}</li>`;
          })
          .join('');
        return (
          `<section id="${escape(operation.operationId)}"><h3><span class="method">${method.toUpperCase()}</span> <code>${escape(path)}</code></h3>` +
          `<p>${escape(operation.summary)} <em>(who: ${escape(who(operation))})</em></p>` +
          (parameters ? `<p>Parameters:</p><ul>${parameters}</ul>` : '') +
          body +
          `<p>Answers:</p><ul>${answers}</ul></section>`
        );
      })
      .join('\n');
  const schemas = Object.entries(doc.components.schemas)
    .map(([name, schema]) => `<details id="schema-${escape(name)}"><summary><code>${escape(name)}</code></summary><pre>${schemaHtml(schema)}</pre></details>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(doc.info.title)}</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1f1f1f; }
h3 { font-size: 1rem; margin-bottom: 0.25rem; }
section { border-top: 1px solid #ddd; padding: 0.5rem 0; }
.method { display: inline-block; min-width: 4.5rem; font-family: monospace; }
pre { background: #f5f5f5; padding: 0.5rem; overflow-x: auto; font-size: 13px; }
code { font-size: 13px; white-space: pre-wrap; }
</style>
</head>
<body>
<h1>${escape(doc.info.title)}</h1>
<p>${escape(doc.info.description)}</p>
<p>The document itself: <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a> (OpenAPI 3.1).</p>
<nav><p>${tags.map((tag) => `<a href="#tag-${escape(tag)}">${escape(tag)}</a>`).join(' · ')} · <a href="#schemas">schemas</a></p></nav>
${tags.map(section).join('\n')}
<h2 id="schemas">Schemas</h2>
${schemas}
</body>
</html>
`;
}
