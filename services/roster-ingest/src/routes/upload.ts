import { StringDecoder } from 'node:string_decoder';
import { HttpError, badRequest, routes, type SessionGuard } from '@crewswap/kit';
import { API, ROSTER_MAX_BYTES, ROSTER_MESSAGES, ROSTER_UPLOAD_MESSAGES, isRosterFileName, type RosterErrorType, type RosterUploadResult } from '@crewswap/proto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PilotRepository } from '../data/pilots';
import type { ImportRoster, ImportInput } from '../domain/import-roster';

/** The spec's refusals answer `{error, message}` with the same text (the app shows `message`). */
const refuse = (status: number, message: string) => new HttpError(status, message, { extra: { message } });

export function uploadRoutes(app: FastifyInstance, deps: { guard: SessionGuard; pilots: PilotRepository; importRoster: ImportRoster }): void {
  const { guard, pilots, importRoster } = deps;

  // The body is a multipart stream, read here part by part rather than parsed with a schema.
  routes(app)(API.uploadRoster, { auth: guard.pilot, handlerReadsBody: true }, async ({ session, request }): Promise<RosterUploadResult> => {
    const { pilotId } = session;
    const startedAt = new Date();
    // Looked up while the file streams in rather than before. A request refused before it is
    // awaited must not leave its failure unhandled.
    const found = pilots.find(pilotId);
    found.catch(() => undefined);

    if (!request.isMultipart()) throw badRequest(ROSTER_MESSAGES.NO_FILE, { extra: { message: ROSTER_MESSAGES.NO_FILE } });
    // A browser's FormData is never compressed; a compressed body would only be read as garbage.
    const encoding = request.headers['content-encoding'];
    if (encoding && encoding.toLowerCase() !== 'identity') throw refuse(400, ROSTER_UPLOAD_MESSAGES.unreadable);
    const file = await readRosterPart(request).catch((error: unknown) => {
      // Reading the body only fails on the body itself (no boundary, cut off, garbage): the client's mistake.
      request.log.info({ err: error }, 'unreadable multipart roster upload');
      throw refuse(400, ROSTER_UPLOAD_MESSAGES.unreadable);
    });

    const pilot = await found;
    const input: ImportInput = {
      source: 'manual_upload',
      pilotId,
      pilot,
      files: [],
      startedAt,
      ipAddress: request.ip,
      userAgent: request.headers['user-agent'] ?? null,
      attachmentCount: 0,
    };
    const refuseAndRecord = async (status: number, type: RosterErrorType, name: string | null, size = 0) => {
      const message = ROSTER_MESSAGES[type];
      await importRoster.fail({ ...input, files: name ? [{ name, contentType: null, text: '', sizeBytes: size }] : [], attachmentCount: name ? 1 : 0 }, undefined, 'file_check', type, message);
      return refuse(status, message);
    };

    if (!file) throw await refuseAndRecord(400, 'NO_FILE', null);
    // Postgres cannot store a NUL, and no real file name holds a control character.
    if (/[\u0000-\u001f\u007f]/.test(file.name)) throw refuse(400, ROSTER_UPLOAD_MESSAGES.badFileName);
    if (!isRosterFileName(file.name)) throw await refuseAndRecord(400, 'UNSUPPORTED_EXTENSION', file.name, file.size);
    if (file.tooLarge) throw await refuseAndRecord(413, 'FILE_TOO_LARGE', file.name, file.size);

    const outcome = await importRoster.execute({
      ...input,
      files: [{ name: file.name, contentType: file.contentType, text: file.text, sizeBytes: file.size }],
      attachmentCount: 1,
    });
    if (!outcome.ok) throw refuse(outcome.errorType === 'IMPORT_FAILED' ? 409 : 400, outcome.message);
    return outcome.result;
  });
}

/**
 * Reads the `roster` part as text while it streams in: the bytes are decoded chunk by chunk and
 * never held whole beside the text. Past 10 MB the rest is drained and only counted.
 */
async function readRosterPart(request: FastifyRequest): Promise<{ name: string; contentType: string; text: string; size: number; tooLarge: boolean } | null> {
  for await (const part of request.parts()) {
    if (part.type !== 'file') continue;
    if (part.fieldname !== 'roster') {
      part.file.resume();
      continue;
    }
    const decoder = new StringDecoder('utf8');
    const pieces: string[] = [];
    let size = 0;
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size <= ROSTER_MAX_BYTES) pieces.push(decoder.write(chunk));
    }
    pieces.push(decoder.end());
    const tooLarge = part.file.truncated || size > ROSTER_MAX_BYTES;
    return { name: part.filename || 'roster', contentType: part.mimetype, text: tooLarge ? '' : pieces.join(''), size, tooLarge };
  }
  return null;
}
