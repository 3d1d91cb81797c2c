#!/usr/bin/env node
// Validates glTF/GLB files with the Khronos glTF validator.
// usage: node validate.js [--allow-warnings] FILE...
// Prints one summary line per file and every error and warning; exits 1 when a file has an
// error (or a warning, unless --allow-warnings), 2 on usage errors.
'use strict';
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');

const SEVERITY = ['error', 'warning', 'info', 'hint'];

async function validateFile(file, allowWarnings) {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const report = await validator.validateBytes(bytes, {
        uri: path.basename(file),
        maxIssues: 0, // no limit
        externalResourceFunction: (uri) =>
            fs.promises.readFile(path.resolve(path.dirname(file), decodeURIComponent(uri))),
    });
    const issues = report.issues;
    console.log(`${file}: ${issues.numErrors} errors, ${issues.numWarnings} warnings, ` +
                `${issues.numInfos} infos, ${issues.numHints} hints (gltf-validator ${validator.version()})`);
    for (const m of issues.messages) {
        if (m.severity <= 1) console.log(`  ${SEVERITY[m.severity]} ${m.code} ${m.pointer || ''}: ${m.message}`);
    }
    return issues.numErrors === 0 && (allowWarnings || issues.numWarnings === 0);
}

async function main() {
    const args = process.argv.slice(2);
    const allowWarnings = args.includes('--allow-warnings');
    const files = args.filter((a) => a !== '--allow-warnings');
    if (files.length === 0 || files.some((f) => f.startsWith('-'))) {
        console.error('usage: node validate.js [--allow-warnings] FILE...');
        return 2;
    }
    let ok = true;
    for (const file of files) {
        try {
            ok = (await validateFile(file, allowWarnings)) && ok;
        } catch (e) {
            console.log(`${file}: cannot validate: ${e}`);
            ok = false;
        }
    }
    return ok ? 0 : 1;
}

main().then((code) => { process.exitCode = code; });
