import { stat } from 'node:fs/promises';
import { dirname, extname, isAbsolute, resolve } from 'node:path';
import { FaultlineError, FaultlineErrorCode, isFaultlineError } from '../core/index.js';
import { isBuiltinService } from '../world/createWorld.js';
import { isServiceDefinition, type ServiceDefinition } from '../world/define/defineService.js';
import { loadFile, MODULE_EXTENSIONS } from './loadFile.js';

/** Whether a `services` entry names a module rather than a built-in: a path, or a file with a module extension. */
export function isServiceModulePath(ref: string): boolean {
  if (isBuiltinService(ref)) return false;
  return (
    ref.startsWith('.') ||
    isAbsolute(ref) ||
    ref.includes('/') ||
    ref.includes('\\') ||
    (MODULE_EXTENSIONS as readonly string[]).includes(extname(ref).toLowerCase())
  );
}

/**
 * The service a module declares: its default export, from `defineService`.
 * @throws FaultlineError `FAULTLINE_SERVICE_INVALID` naming the file: it does not load, or its
 *   default export is not a service.
 */
export async function loadServiceModule(file: string): Promise<ServiceDefinition> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) throw new FaultlineError(FaultlineErrorCode.NotFound, `${file}: no such file`);
  const value = await loadFile(file, FaultlineErrorCode.ServiceInvalid);
  if (isServiceDefinition(value)) return value;
  const got =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'an array'
        : typeof value === 'object'
          ? 'an object that did not come from defineService'
          : `a ${typeof value}`;
  throw new FaultlineError(
    FaultlineErrorCode.ServiceInvalid,
    `${file}: expected the default export to be a service (export default defineService({ ... })), got ${got}`,
  );
}

/**
 * A scenario file's value with every module path in `services` replaced by the service it
 * declares, resolved from the scenario file's folder. Built-in names, definitions already
 * imported (TypeScript scenarios) and anything else are left for the scenario schema to judge.
 */
export async function resolveServiceModules(value: unknown, scenarioFile: string): Promise<unknown> {
  if (typeof value !== 'object' || value === null || !('services' in value)) return value;
  const services = (value as { services?: unknown }).services;
  if (!Array.isArray(services)) return value;
  const resolved: unknown[] = [];
  for (const [i, ref] of services.entries()) {
    if (typeof ref !== 'string' || !isServiceModulePath(ref)) {
      resolved.push(ref);
      continue;
    }
    const path = resolve(dirname(resolve(scenarioFile)), ref);
    try {
      resolved.push(await loadServiceModule(path));
    } catch (error) {
      if (!isFaultlineError(error)) throw error;
      throw new FaultlineError(
        error.code,
        `${scenarioFile}: services[${i}] (${ref}): ` +
          `${error.message.startsWith(path) ? error.message.slice(path.length + 2) : error.message}`,
        {
          source: scenarioFile,
          service: path,
        },
      );
    }
  }
  return { ...value, services: resolved };
}
