import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { errorExit, ExitCode } from './exitCodes.js';

describe('errorExit', () => {
  it('leaves help and --version with 0 and every other commander error with 2, adding nothing to what commander printed', () => {
    expect(errorExit(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'))).toEqual({
      code: 0,
      message: '',
    });
    expect(errorExit(new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'"))).toEqual({
      code: 2,
      message: '',
    });
    expect(errorExit(new CommanderError(1, 'commander.help', '(outputHelp)'))).toEqual({ code: 2, message: '' });
  });

  it('reports input errors with exit 2 and their own message, which names the file and path', () => {
    const e = new FaultlineError(
      FaultlineErrorCode.ScenarioInvalid,
      'a.yaml: invalid scenario "a":\n  - rules[0]: expected a rule id such as "R7"',
    );
    expect(errorExit(e)).toEqual({
      code: ExitCode.Usage,
      message: 'error: a.yaml: invalid scenario "a":\n  - rules[0]: expected a rule id such as "R7"',
    });
    for (const code of [
      FaultlineErrorCode.ConfigInvalid,
      FaultlineErrorCode.NotFound,
      FaultlineErrorCode.Usage,
      FaultlineErrorCode.PlanInvalid,
    ]) {
      expect(errorExit(new FaultlineError(code, 'x')).code).toBe(2);
    }
  });

  it('treats internal errors and anything unexpected as a crash (exit 3) and shows the stack', () => {
    const internal = errorExit(new FaultlineError(FaultlineErrorCode.Internal, 'report does not match its schema'));
    expect(internal.code).toBe(3);
    expect(internal.message).toMatch(/^faultline crashed: FaultlineError: report does not match its schema\n\s+at /);
    const bug = errorExit(new TypeError('x is not a function'));
    expect(bug.code).toBe(3);
    expect(bug.message).toMatch(/bug in faultline[\s\S]*TypeError: x is not a function\n\s+at /);
    expect(errorExit('thrown string')).toEqual({
      code: 3,
      message: 'faultline crashed (this is a bug in faultline, please report it):\nthrown string',
    });
  });
});
