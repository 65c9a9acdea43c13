import OpenCoreDataMacros
import Shop
import XCTest

/// The classes OpenCoreDataModelPlugin generated from Shop.xcdatamodeld at build time, used as
/// an app uses Xcode's: typed properties, the typed fetch request, Xcode's to-many accessors.
final class ShopTests: XCTestCase {
    func testTheGeneratedClassesAreTheEntitiesClasses() throws {
        let context = try ShopStore.makeContainer().viewContext
        try context.performAndWait {
            let shelf = Shelf(context: context)
            shelf.label = "Fiction"
            let book = Book(context: context)
            book.name = "Dune"
            book.isbn = "978-0441013593"
            book.stock = 3
            let pen = Product(context: context)
            pen.name = "Pen"
            pen.rating = 4.5
            shelf.addToProducts(pen)
            shelf.insertIntoProducts(book, at: 0)
            let tag = Tag(context: context)
            tag.word = "classics"
            shelf.addToTags(tag)
            try context.save()

            XCTAssertEqual(shelf.products.map(\.name), ["Dune", "Pen"], "ordered, with the inverse kept")
            XCTAssertTrue(book.shelf === shelf)
            XCTAssertEqual(tag.shelves, [shelf])
            XCTAssertTrue(book.hasISBN)

            let request = Product.fetchRequest()   // NSFetchRequest<Product>: the generated overload
            request.predicate = NSPredicate(format: "stock > 0")
            let inStock: [Product] = try context.fetch(request)
            XCTAssertEqual(inStock.map(\.name), ["Dune"])
            XCTAssertTrue(inStock.first is Book, "the subentity's objects are of the user's class")
            XCTAssertEqual(try context.fetch(Shelf.fetchRequest()).first?.label, "Fiction")

            shelf.removeFromProducts(at: 0)
            XCTAssertNil(book.shelf)
        }
    }
}
