import type { ServedService } from './Exchange.js';
import { matchRoute, type ErrorMapper, type HttpRoute, type RouteMatch } from './HttpRoute.js';

/** A service's routes as given, before the engine looks requests up in them. */
export interface RoutedService {
  readonly baseUrl: string;
  readonly routes: readonly HttpRoute[];
  readonly error?: ErrorMapper;
  readonly name?: string;
}

/** Where a request lands: the route that takes it and the service it belongs to. */
export interface Routed {
  readonly match: RouteMatch;
  readonly service: ServedService;
}

/** The services of one trial, by origin and path prefix: which route takes a request, and what is served where. */
export class ServedRoutes {
  readonly #services: readonly ServedService[];

  constructor(services: readonly RoutedService[]) {
    this.#services = services.map((s) => {
      const url = new URL(s.baseUrl);
      return {
        origin: url.origin,
        prefix: url.pathname.replace(/\/+$/, ''),
        routes: s.routes,
        error: s.error,
        name: s.name,
      };
    });
  }

  /** The origins served (`https://api.shop.test`), each once. */
  get origins(): readonly string[] {
    return [...new Set(this.#services.map((s) => s.origin))];
  }

  /** The routes served at `url`'s origin, or, when none is, the origins served. */
  servedNear(url: string): { served: string[]; servedHere: boolean } {
    const origin = URL.canParse(url) ? new URL(url).origin : url;
    const here = this.#services.filter((s) => s.origin === origin);
    if (here.length === 0) return { served: [...this.origins], servedHere: false };
    return {
      served: here.flatMap((s) => s.routes.map((r) => `${r.method} ${s.origin}${s.prefix}${r.path} (${r.operation})`)),
      servedHere: true,
    };
  }

  /** The route that takes `method` `url`, or `undefined`. */
  route(method: string, url: string): Routed | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    for (const s of this.#services) {
      if (parsed.origin !== s.origin) continue;
      if (s.prefix !== '' && parsed.pathname !== s.prefix && !parsed.pathname.startsWith(`${s.prefix}/`)) continue;
      const match = matchRoute(s.routes, method, parsed.pathname.slice(s.prefix.length) || '/');
      if (match) return { match, service: s };
    }
    return undefined;
  }
}
