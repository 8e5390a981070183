/**
 * Schema files a hostile or mistaken command line names: a device, a FIFO (as the file or as one of its
 * imports) and a folder are refused at once naming the path (`--proto /dev/zero` read forever, as did a k6
 * script's `client.load` of it, refused only after the script's minute), a protoset the same; a proto that
 * does not parse is named with its line and without the import-folder hint, which only a missing import gets.
 * An import that leaves the import paths (`..`, an absolute path) is refused naming it and the paths, nothing
 * of the file it names read or shown; a message of tens of thousands of fields parses in linear time.
 */
import { ok, throws } from "node:assert/strict";
import { findMethod, GrpcSchemaError, loadProtoFile, loadProtoset } from "./schema.ts";

Deno.test("a schema path that is not a regular file is refused at once, naming it", () => {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-grpc-schema-" });
  try {
    new Deno.Command("mkfifo", { args: [`${dir}/pipe.proto`] }).outputSync();
    Deno.writeTextFileSync(`${dir}/imports_pipe.proto`, 'syntax = "proto3";\nimport "pipe.proto";\n');
    Deno.writeTextFileSync(`${dir}/broken.proto`, 'syntax = "proto3";\nmessage A { string a = 1\n');
    const refused = (
      load: () => unknown,
      why: RegExp,
      hint = `give a .proto file's path from ${Deno.cwd()}`,
    ) =>
      throws(load, (err: unknown) => {
        ok(err instanceof GrpcSchemaError && why.test(err.message), String(err));
        ok(err.hint === hint, `hint: ${err.hint}`);
        return true;
      });
    refused(
      () => loadProtoFile("/dev/zero"),
      /--proto \/dev\/zero: cannot read \/dev\/zero: is a character device/,
    );
    refused(() => loadProtoFile(`${dir}/pipe.proto`), /pipe\.proto: is a FIFO/);
    refused(
      () => loadProtoFile(`${dir}/imports_pipe.proto`),
      /imports_pipe\.proto: cannot read .*pipe\.proto: is a FIFO/,
      "give its imports as .proto files",
    );
    refused(() => loadProtoFile(dir), /is a folder/);
    refused(() => loadProtoFile(`${dir}/broken.proto`), /illegal token .*line 3/, "");
    refused(
      () => loadProtoFile(`${dir}/none.proto`),
      /none\.proto: cannot read .*none\.proto: no such file/,
    );
    Deno.writeTextFileSync(`${dir}/imports_none.proto`, 'syntax = "proto3";\nimport "none.proto";\n');
    refused(
      () => loadProtoFile(`${dir}/imports_none.proto`),
      /ENOENT/,
      "add the folder its imports are under with -i DIR",
    );
    refused(
      () => loadProtoset("/dev/zero"),
      /--protoset \/dev\/zero: cannot read: is a character device/,
      "make one with protoc --descriptor_set_out=FILE --include_imports",
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("an import leaving the import paths is refused naming it and the paths, the file never read", () => {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-grpc-schema-" });
  try {
    Deno.mkdirSync(`${dir}/protos/deep`, { recursive: true });
    Deno.writeTextFileSync(`${dir}/secret.txt`, "hunter2 is the password\n");
    const importing = (target: string) => {
      Deno.writeTextFileSync(`${dir}/protos/deep/a.proto`, `syntax = "proto3";\nimport "${target}";\n`);
      try {
        loadProtoFile(`${dir}/protos/deep/a.proto`, [`${dir}/protos`]);
      } catch (err) {
        ok(err instanceof GrpcSchemaError, String(err));
        return err.message;
      }
      return "accepted";
    };
    for (const target of ["../../secret.txt", `${dir}/secret.txt`, "deep/../../secret.txt", "/etc/passwd"]) {
      const said = importing(target);
      ok(said.includes(`import ${JSON.stringify(target)}`) && said.includes(`${dir}/protos`), said);
      ok(!/hunter2|root/.test(said) && !said.includes("\n"), said);
    }
    Deno.writeTextFileSync(`${dir}/protos/b.proto`, 'syntax = "proto3";\nmessage B {}\n');
    ok(importing("b.proto") === "accepted");
    // As protoc and ghz: the file itself, not at its path from here, is found under an import path.
    ok(loadProtoFile("deep/a.proto", [`${dir}/nope`, `${dir}/protos`]).lookupType("B"));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a message of 40,000 fields, oneofs and reserved entries parses in linear time", () => {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-grpc-schema-" });
  try {
    let text = 'syntax = "proto3";\npackage big;\nmessage M {\n';
    for (let i = 1; i <= 20_000; i++) text += `  string f${i} = ${i};\n  reserved ${40_000 + i};\n`;
    for (let i = 20_001; i <= 40_000; i++) {
      text += `  oneof o${i} { string f${i} = ${i}; }\n  reserved "r${i}";\n`;
    }
    text += "}\nservice S { rpc Call(M) returns (M); }\n";
    Deno.writeTextFileSync(`${dir}/big.proto`, text);
    const started = performance.now();
    const method = findMethod(loadProtoFile(`${dir}/big.proto`), "big.S/Call");
    const tookMs = performance.now() - started;
    ok(Object.keys(method.requestType.fields).length === 40_000);
    ok(method.requestType.oneofsArray.length === 20_000);
    // Linear: about 1 s on a busy machine; the quadratic parse took minutes.
    ok(tookMs < 30_000, `${tookMs} ms`);
    const refused = (body: string) =>
      throws(() => {
        Deno.writeTextFileSync(`${dir}/r.proto`, `syntax = "proto3";\nmessage R {\n${body}}\n`);
        loadProtoFile(`${dir}/r.proto`);
      }, /is reserved|duplicate/);
    refused("  reserved 5;\n  string a = 5;\n");
    refused("  reserved 3 to 9;\n  string a = 7;\n");
    refused('  reserved "a";\n  string a = 1;\n');
    refused("  string a = 1;\n  oneof o { string b = 1; }\n");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("extensions declared before the messages they extend parse in linear time, each added", () => {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-grpc-schema-" });
  try {
    let text = 'syntax = "proto2";\npackage big;\nmessage Early { extensions 1 to max; }\n';
    text += "extend Early { optional string early = 1; }\n";
    for (let i = 1; i <= 20_000; i++) text += `extend Later { optional string e${i} = ${i}; }\n`;
    for (let i = 1; i <= 20_000; i++) text += `message M${i} { optional string a = 1; }\n`;
    text += "message Holder { extend Later { optional string held = 30000; } }\n";
    text += "message Later { extensions 1 to max; }\nservice S { rpc Call(Later) returns (Early); }\n";
    Deno.writeTextFileSync(`${dir}/ext.proto`, text);
    const started = performance.now();
    const method = findMethod(loadProtoFile(`${dir}/ext.proto`), "big.S/Call");
    const tookMs = performance.now() - started;
    ok(Object.keys(method.requestType.fields).length === 20_001);
    ok(Object.keys(method.responseType.fields).length === 1);
    // Linear: a few seconds on a busy machine; protobufjs alone took 27 s for a quarter of them.
    ok(tookMs < 30_000, `${tookMs} ms`);
    Deno.writeTextFileSync(
      `${dir}/bad.proto`,
      'syntax = "proto2";\nextend Nowhere { optional string x = 1; }\n',
    );
    throws(() => loadProtoFile(`${dir}/bad.proto`), /unresolvable extensions: 'extend Nowhere'/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
