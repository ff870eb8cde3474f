import { describe, expect, it } from 'vitest';
import { ResolutionError } from '../../src/errors.js';
import { parseGitHubUrl, githubUrlFormMessage } from '../../src/resolve/github/url.js';
import { isSemanticVersion } from '../../src/resolve/github/semantic.js';
import { escapedPath, parseGoUrl } from '../../src/go/index.js';
import { parseTolerant } from '../../src/resolve/goproxy/index.js';

function error(fn: () => unknown): ResolutionError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ResolutionError);
    expect((e as ResolutionError).exitCode).toBe(3);
    return e as ResolutionError;
  }
  throw new Error('expected an error');
}

describe('GitHub repository URLs (§4.2)', () => {
  it('splits owner, repo, version, rootPath and components path', () => {
    expect(parseGitHubUrl('https://github.com/o/r1/releases/v0.4.1/path')).toEqual({
      host: 'github.com',
      owner: 'o',
      repository: 'r1',
      defaultVersion: 'v0.4.1',
      rootPath: '.',
      componentsPath: 'path',
    });
    expect(parseGitHubUrl('https://github.com/o/r/releases/latest/download/x.yaml')).toMatchObject({
      defaultVersion: 'latest',
      rootPath: 'download',
      componentsPath: 'x.yaml',
    });
    // clusterctl's quirk: the download URL form makes "download" the version.
    expect(parseGitHubUrl('https://github.com/o/r/releases/download/v1.2.3/x.yaml').defaultVersion).toBe('download');
  });

  it('exact errors', () => {
    expect(error(() => parseGitHubUrl('%gh&%ij')).message).toBe('invalid url: parse "%gh&%ij": invalid URL escape "%gh"');
    expect(error(() => parseGitHubUrl('http://github.com/o/r/releases/v1/c.yaml')).message).toBe(
      'invalid url: a GitHub repository url should start with https://github.com',
    );
    expect(error(() => parseGitHubUrl('https://github.com/dd/')).message).toBe(githubUrlFormMessage);
    expect(error(() => parseGitHubUrl('https://github.com/o/r/tags/v1/c.yaml')).message).toBe(githubUrlFormMessage);
  });
});

describe('Go URL parsing', () => {
  it('keeps the escaped path and reports Go errors', () => {
    const u = parseGoUrl('https://gitlab.example.org/api/v4/projects/group%2Fproject/x');
    expect(u).toMatchObject({ scheme: 'https', host: 'gitlab.example.org', path: '/api/v4/projects/group/project/x' });
    expect(escapedPath(u)).toBe('/api/v4/projects/group%2Fproject/x');
    expect(() => parseGoUrl('://x')).toThrow('parse "://x": missing protocol scheme');
    expect(() => parseGoUrl('a:b/c')).not.toThrow();
    expect(parseGoUrl('/abs/path.yaml')).toMatchObject({ scheme: '', path: '/abs/path.yaml' });
  });
});

describe('versions', () => {
  it.each([
    ['v1.2.3', true],
    ['1.2.3', true],
    ['v1.2.3-alpha.1+build.5', true],
    ['v1.2', false],
    ['v01.2.3', false],
    ['v1.2.3-01', false],
    ['foo', false],
  ])('ParseSemantic(%s) = %s', (tag, ok) => expect(isSemanticVersion(tag)).toBe(ok));

  it.each([
    ['v1.0.0', '1.0.0'],
    [' v1.2 ', '1.2.0'],
    ['2', '2.0.0'],
    ['v1.0.0-rc.1', '1.0.0-rc.1'],
    ['garbage', null],
  ])('ParseTolerant(%j) = %s', (line, v) => expect(parseTolerant(line)).toBe(v));
});
